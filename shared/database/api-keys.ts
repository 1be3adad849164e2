/**
 * The API keys of organizations, kept in the control plane (docs/api.md#api-keys).
 *
 * A key is `plx_sk_` and 43 random URL-safe characters (32 bytes). Only the SHA-256 digest of the whole key (hex) and
 * its display prefix (its first 11 characters, `plx_sk_AbCd`) are stored; the plaintext is returned once, by
 * {@link ApiKeys.create} and {@link ApiKeys.rotate}, and never again. A presented key is found by its digest (an
 * index lookup: the digest of a 256-bit random secret tells nothing about a neighbouring key, so no constant-time
 * comparison is needed there).
 *
 * Glossary: a key is *live* until it is revoked; it is *active* while it is live and not past its `expires_at`. Only
 * active keys verify and count toward the per-organization limit; live keys are listed.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import { LRUCache } from 'lru-cache';
import { ApiKeyLimitReachedError, ApiKeyNotFoundError, OrganizationNotFoundError } from '../errors/index.js';
import { swallowedErrors } from '../observability/index.js';
import type { ControlPlaneDatabase } from './open-database.js';
import type { RandomBytes } from './organizations.js';
import type { ApiKeyRow, ControlPlaneSchema } from './schema.js';

/** What every key starts with: a bearer token starting so is looked up in the store. */
export const API_KEY_PREFIX = 'plx_sk_';

/** Characters of a key kept for display: the prefix and 4 random characters. */
const DISPLAY_PREFIX_LENGTH = 11;
/** Random bytes of a key's secret part (43 base64url characters) and of a key id (16). */
const SECRET_BYTES = 32;
const ID_BYTES = 12;
/** Least time between two writes of one key's `last_used_at`, in ms. */
const TOUCH_INTERVAL_MS = 60_000;
/** Most keys whose last write of `last_used_at` this process remembers. */
const TOUCHED_KEYS_MAX = 10_000;

/** An API key as listed: never its secret. Times are the database's (`created_at`) or the store's clock. */
export interface ApiKey {
  /** `key_…`. */
  readonly id: string;
  readonly organizationId: string;
  readonly label: string;
  /** The key's first 11 characters, to tell keys apart (`plx_sk_AbCd`). */
  readonly prefix: string;
  readonly createdAt: Date;
  /** When it last authenticated a request, to the minute; null when never. */
  readonly lastUsedAt: Date | null;
  /** When it stops verifying; null when never. */
  readonly expiresAt: Date | null;
}

/** A key just made: its plaintext, shown once. */
export interface IssuedApiKey extends ApiKey {
  /** The whole key, `plx_sk_…`: the only time it is known. */
  readonly secret: string;
}

/** A presented key that verified: who it speaks for. */
export interface VerifiedApiKey {
  readonly id: string;
  readonly organizationId: string;
  /** When it stops verifying; null when never. */
  readonly expiresAt: Date | null;
}

/** What a new key is made of. */
export interface NewApiKey {
  /** Its label (checked by the caller: 1 to 200 characters). */
  readonly label: string;
  /** When it stops verifying (checked by the caller to lie ahead); absent for never. */
  readonly expiresAt?: Date | null;
}

/** How the store behaves. */
export interface ApiKeysOptions {
  /** Most active keys one organization may hold (`API_KEYS_MAX_PER_ORGANIZATION`). */
  readonly maxActivePerOrganization: number;
  /** The clock of expiry, revocation and use, epoch ms; `Date.now` by default. */
  readonly now?: () => number;
  /** The source of secrets and ids; `crypto.randomBytes` by default. */
  readonly random?: RandomBytes;
}

/**
 * The SHA-256 digest of a key, lower-case hex: what the store keeps and looks keys up by.
 * @param secret - the whole key
 */
export function apiKeyDigest(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

function apiKeyOf(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    organizationId: row.organization_id,
    label: row.label,
    prefix: row.prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
  };
}

type Writer = Transaction<ControlPlaneSchema>;

/** The API keys table, in domain terms. */
export class ApiKeys {
  private readonly now: () => number;
  private readonly random: RandomBytes;
  /** Keys whose `last_used_at` this process wrote within {@link TOUCH_INTERVAL_MS}. */
  private readonly touched: LRUCache<string, true>;

  /**
   * @param database - the open control plane
   * @param options - the per-organization limit, the clock and the random source
   */
  constructor(
    private readonly database: ControlPlaneDatabase,
    private readonly options: ApiKeysOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? randomBytes;
    this.touched = new LRUCache<string, true>({
      max: TOUCHED_KEYS_MAX,
      ttl: TOUCH_INTERVAL_MS,
      ttlResolution: 0,
      perf: { now: this.now },
    });
  }

  /**
   * Make a key for an organization.
   * @param organizationId - the organization
   * @param key - its label and expiry
   * @returns the key with its plaintext (shown once)
   * @throws OrganizationNotFoundError (404) for an unknown organization; ApiKeyLimitReachedError (409) when it holds
   *   `maxActivePerOrganization` active keys
   */
  async create(organizationId: string, key: NewApiKey): Promise<IssuedApiKey> {
    return this.database.db.transaction().execute(async (trx) => {
      // Locking the organization's row serialises the key creations of one organization, so the count holds.
      const organization = await trx
        .selectFrom('organizations')
        .select('id')
        .where('id', '=', organizationId)
        .forUpdate()
        .executeTakeFirst();
      if (!organization) throw new OrganizationNotFoundError(`No organization '${organizationId}' exists.`);
      const active = await this.activeCount(trx, organizationId);
      if (active >= this.options.maxActivePerOrganization)
        throw new ApiKeyLimitReachedError(
          `Organization '${organizationId}' already holds ${active} active API keys, the most it may hold (API_KEYS_MAX_PER_ORGANIZATION); revoke one first.`,
        );
      return this.insert(trx, organizationId, key);
    });
  }

  /**
   * The live keys of an organization (revoked ones are gone; expired ones stay until revoked), newest first.
   * @param organizationId - the organization
   */
  async list(organizationId: string): Promise<ApiKey[]> {
    const rows = await this.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(apiKeyOf);
  }

  /**
   * Revoke a key: it stops verifying at once in the store (and within the verification cache's lifetime on every
   * replica; docs/api.md#api-keys).
   * @param organizationId - the caller's organization
   * @param id - the key's id
   * @throws ApiKeyNotFoundError (404) for an unknown id, a revoked key or another organization's key
   */
  async revoke(organizationId: string, id: string): Promise<void> {
    const revoked = await this.database.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date(this.now()) })
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!revoked) throw notFound(organizationId, id);
  }

  /**
   * Replace a key by a new one with the same label and expiry, revoking the old one, in one transaction.
   * @param organizationId - the caller's organization
   * @param id - the key to replace
   * @returns the new key with its plaintext (shown once)
   * @throws ApiKeyNotFoundError (404) for an unknown id, a revoked key or another organization's key
   */
  async rotate(organizationId: string, id: string): Promise<IssuedApiKey> {
    return this.database.db.transaction().execute(async (trx) => {
      const old = await trx
        .updateTable('api_keys')
        .set({ revoked_at: new Date(this.now()) })
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .where('revoked_at', 'is', null)
        .returning(['label', 'expires_at'])
        .executeTakeFirst();
      if (!old) throw notFound(organizationId, id);
      return this.insert(trx, organizationId, { label: old.label, expiresAt: old.expires_at });
    });
  }

  /**
   * Verify a presented key.
   * @param secret - the bearer token, `plx_sk_…`
   * @returns who it speaks for, or undefined when no active key is this one (unknown, revoked or expired)
   */
  async verify(secret: string): Promise<VerifiedApiKey | undefined> {
    const row = await this.database.db
      .selectFrom('api_keys')
      .select(['id', 'organization_id', 'expires_at'])
      .where('digest', '=', apiKeyDigest(secret))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row || (row.expires_at !== null && row.expires_at.getTime() <= this.now())) return undefined;
    return { id: row.id, organizationId: row.organization_id, expiresAt: row.expires_at };
  }

  /**
   * Record that a key authenticated a request: writes `last_used_at` at most once a minute per key and process, and
   * never fails (a failed write is counted in `mthds_swallowed_errors_total{site="database:api-key-touch"}`). Callers
   * on a request's path do not wait for it.
   * @param id - the key's id
   * @returns when the write, if any, is done
   */
  touch(id: string): Promise<void> {
    if (this.touched.has(id)) return Promise.resolve();
    this.touched.set(id, true);
    return this.database.db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(this.now()) })
      .where('id', '=', id)
      .execute()
      .then(
        () => undefined,
        (error: unknown) => swallowedErrors.report('database:api-key-touch', error),
      );
  }

  private async activeCount(trx: Writer, organizationId: string): Promise<number> {
    const { count } = await trx
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', organizationId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date(this.now()))]))
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  private async insert(trx: Writer, organizationId: string, key: NewApiKey): Promise<IssuedApiKey> {
    const secret = `${API_KEY_PREFIX}${this.random(SECRET_BYTES).toString('base64url')}`;
    const row = await trx
      .insertInto('api_keys')
      .values({
        id: `key_${this.random(ID_BYTES).toString('base64url')}`,
        organization_id: organizationId,
        label: key.label,
        prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
        digest: apiKeyDigest(secret),
        expires_at: key.expiresAt ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...apiKeyOf(row), secret };
  }
}

function notFound(organizationId: string, id: string): ApiKeyNotFoundError {
  return new ApiKeyNotFoundError(`No live API key '${id}' in organization '${organizationId}'.`);
}
