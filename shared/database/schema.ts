/**
 * The control plane's tables as Kysely sees them (docs/control-plane.md#data-model): what must be kept, listed and
 * searched. Times are `timestamptz`, read back as `Date`; ids are prefixed strings (`org_…`, `key_…`).
 */
import type { ColumnType, Insertable, Selectable } from 'kysely';

/** A time the database sets on insert (`now()`), read as a `Date`. */
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** A nullable time the code sets, read as a `Date`. */
type OptionalTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

/** An organization: the tenant that owns runs, methods, keys and storage scopes. */
export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: CreatedAt;
}

/**
 * An API key of an organization. Only the SHA-256 digest of the key (hex) and its display prefix are kept; the
 * plaintext is shown once, when the key is created or rotated.
 */
export interface ApiKeysTable {
  id: string;
  organization_id: string;
  label: string;
  /** The first characters of the key, for people to tell keys apart (`plx_sk_AbCd`). */
  prefix: string;
  /** SHA-256 of the whole key, lower-case hex; unique. */
  digest: string;
  created_at: CreatedAt;
  last_used_at: OptionalTime;
  expires_at: OptionalTime;
  revoked_at: OptionalTime;
}

/** Every table of the control plane, by name. */
export interface ControlPlaneSchema {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
}

/** A row of `api_keys` as read. */
export type ApiKeyRow = Selectable<ApiKeysTable>;
/** A row of `api_keys` as written. */
export type NewApiKeyRow = Insertable<ApiKeysTable>;
/** A row of `organizations` as read. */
export type OrganizationRow = Selectable<OrganizationsTable>;
