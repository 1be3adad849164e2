/**
 * The control plane's tables as Kysely sees them (docs/control-plane.md#data-model): what must be kept, listed and
 * searched. Times are `timestamptz`, read back as `Date`; ids are prefixed strings (`org_…`, `key_…`, `mt_…`).
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
  /** Its share of the run queue: its in-flight limit is `RUN_ORG_IN_FLIGHT_LIMIT` times this (docs/fair-dispatch.md). */
  run_share: ColumnType<number, number | undefined, number>;
  /** The highest `priority` its runs may ask for; null: `RUN_PRIORITY_CEILING`. */
  priority_ceiling: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * Its own share of each provider rate limit, in (0, 1] (docs/inference.md#organization-shares); null: the
   * deployment's `INFERENCE_ORG_RATE_SHARE`.
   */
  inference_rate_share: ColumnType<number | null, number | null | undefined, number | null>;
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

/** A time the code sets on insert and update, read as a `Date`. */
type Time = ColumnType<Date, Date | string, Date | string>;
/** A JSON document (`jsonb`), written as its JSON text, read back parsed. */
type Json = ColumnType<unknown, string | null, string | null>;
/** A count PostgreSQL keeps as `bigint` (read back as a decimal string by `pg`, as a number by PGlite). */
type BigCount = ColumnType<string | number, number | undefined, number>;

/**
 * A run in the history (docs/control-plane.md#data-model): one row per run of an owner, written from the run records
 * through the history outbox. `state_rank` orders the states a run goes through (0 accepted, 1 running, 2 ended), so a
 * late write of an earlier state never replaces a later one.
 */
export interface RunsTable {
  owner: string;
  pipeline_run_id: string;
  request_id: string;
  workflow_id: string | null;
  method_id: string | null;
  method_version: number | null;
  pipe_code: string | null;
  state: string;
  state_rank: number;
  storage_scope: string;
  created_at: Time;
  started_at: OptionalTime;
  finished_at: OptionalTime;
  updated_at: CreatedAt;
  attempts: number;
  error_type: string | null;
  error_message: string | null;
  /** The run's error report (`ErrorReport`), as the run record keeps it. */
  error: Json;
  /** The run's usage and cost report (`RunUsageReport`: `total`, `by_model`, `by_pipe`). */
  usage: Json;
  calls: number;
  input_tokens: BigCount;
  output_tokens: BigCount;
  cost_usd: number | null;
  /** SHA-256 (hex) of the run's bundle texts, in order. */
  source_digest: string | null;
  /** The object path of the run's submission as sent (`submissions/<run id>.json` under its scope). */
  submission_object: string | null;
  /** A URL a client recorded for the run's result (`PUT /v1/runs/{id}`). */
  result_url: string | null;
  /** The run this one retries (`POST /v1/runs/{id}/retry`); null for a run started otherwise. */
  retry_of: string | null;
}

/**
 * An idempotency key (docs/api.md#idempotency): the first request of an owner, route and key, the digest of its body
 * and, once answered, its response. `status` and `response` are null while the first request is in flight.
 */
export interface IdempotencyKeysTable {
  owner: string;
  route: string;
  key: string;
  request_digest: string;
  status: number | null;
  /** The answer's body as JSON text, byte for byte what a replay sends (a `jsonb` would reorder its members). */
  response: string | null;
  created_at: CreatedAt;
  expires_at: Time;
}

/** Where a method is in its erasure (docs/api.md#methods-catalog); null for a method not being deleted. */
export type MethodDeletionState = 'pending' | 'in_progress' | 'failed';

/**
 * A stored method of the catalog. Its content (`mthds`, `python`, `input_data`) is its draft; `updated_at` moves on
 * every write of the draft and on nothing else, and is the token of its compare-and-swap writes.
 */
export interface MethodsTable {
  /** `mt_…`. */
  id: string;
  /** Who owns it: the caller's own id (an organization's id for its API keys; docs/run-ownership.md). */
  owner: string;
  /** Who created it: the API key's id, the JWT's `user_id`, or `single-tenant`. */
  created_by: string;
  name: string;
  /** The top-level `description` of the draft's first bundle, when it has one. */
  description: string | null;
  /** The draft's `.mthds` source: one raw text, or the JSON text of `[{name, content}]`. */
  mthds: string;
  /** The draft's Python files, as the JSON text of `[{name, content}]`; `''` for none. */
  python: ColumnType<string, string | undefined, string>;
  /** The editor's form inputs, outside the digest. */
  input_data: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** SHA-256 (hex) of the canonical form of the draft's two file sets. */
  draft_digest: string;
  created_at: Time;
  updated_at: Time;
  deletion_state: MethodDeletionState | null;
  /** The id of the erasure under way (`del_…`); null otherwise. */
  deletion_job_id: string | null;
}

/** A published version of a method: an immutable copy of its draft, numbered from 1. */
export interface MethodVersionsTable {
  method_id: string;
  version: number;
  mthds: string;
  python: string;
  /** The draft's digest when it was published. */
  digest: string;
  /** The fingerprint of its crate (docs/crate.md), when it was computed. */
  crate_fingerprint: string | null;
  description: string | null;
  /** The runner version that validated it. */
  runner_version: string | null;
  published_by: string;
  published_at: Time;
}

/** Every table of the control plane, by name. */
export interface ControlPlaneSchema {
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  runs: RunsTable;
  idempotency_keys: IdempotencyKeysTable;
  methods: MethodsTable;
  method_versions: MethodVersionsTable;
}

/** A row of `api_keys` as read. */
export type ApiKeyRow = Selectable<ApiKeysTable>;
/** A row of `api_keys` as written. */
export type NewApiKeyRow = Insertable<ApiKeysTable>;
/** A row of `organizations` as read. */
export type OrganizationRow = Selectable<OrganizationsTable>;
/** A row of `methods` as read. */
export type MethodRow = Selectable<MethodsTable>;
/** A row of `method_versions` as read. */
export type MethodVersionRow = Selectable<MethodVersionsTable>;
