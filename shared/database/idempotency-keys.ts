/**
 * Idempotency keys (docs/api.md#idempotency): the first request of an owner, route and `Idempotency-Key` is answered
 * once; a repeat with the same body gets that answer again, a repeat with another body a 409. The row's primary key
 * decides which of concurrent duplicates is first — a unique constraint, never a read-then-write — so duplicates sent
 * to several API processes at once still make one run.
 *
 * Two ways to hold a key while the first request is answered:
 * - {@link IdempotencyKeys.once} keeps the row's insert uncommitted while the answer is made (a quick one: accepting a
 *   run), so a concurrent duplicate's insert waits on it and then replays the committed answer;
 * - {@link IdempotencyKeys.begin} commits a pending row at once, for an answer that takes as long as a run (a
 *   blocking `/v1/execute`, which must not hold a connection meanwhile): a duplicate that comes while it is pending
 *   gets IdempotencyKeyInUseError, and once {@link IdempotencyKeys.settle} stored the answer, that answer.
 * An answer that is a refusal is not kept: the key is freed, and a retry is answered afresh.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import { IdempotencyKeyInUseError, IdempotencyKeyReusedError } from '../errors/index.js';
import type { ControlPlaneDatabase } from './open-database.js';
import type { ControlPlaneSchema } from './schema.js';

/** Whose key, on which route. */
export interface IdempotencyScope {
  owner: string;
  /** The route's method and path template (`POST /v1/start`). */
  route: string;
  /** The `Idempotency-Key` header's value. */
  key: string;
}

/** An answer kept for a key: its HTTP status and JSON body. */
export interface KeptResponse {
  status: number;
  body: unknown;
}

/** How long keys are kept and how long a duplicate waits for the first request. */
export interface IdempotencyKeysOptions {
  /** How long a key is kept after its first request, in ms (`IDEMPOTENCY_KEY_TTL_HOURS`). */
  ttlMs: number;
  /** How long a concurrent duplicate waits for the first request's answer, in ms. */
  lockWaitMs: number;
  /** The clock, epoch ms. */
  now: () => number;
}

/** SQLSTATE of a lock wait that ran out (`lock_timeout`). */
const LOCK_NOT_AVAILABLE = '55P03';

type Db = Kysely<ControlPlaneSchema> | Transaction<ControlPlaneSchema>;

function reused(scope: IdempotencyScope): IdempotencyKeyReusedError {
  return new IdempotencyKeyReusedError(
    `Idempotency-Key '${scope.key}' was already used with a different request body on ${scope.route}; send a new key for a new request.`,
  );
}

function inUse(scope: IdempotencyScope): IdempotencyKeyInUseError {
  return new IdempotencyKeyInUseError(
    `The first request with Idempotency-Key '${scope.key}' is still being answered; retry later to get its answer.`,
    { retryable: true },
  );
}

/** The idempotency keys table, in domain terms. */
export class IdempotencyKeys {
  private readonly db: Kysely<ControlPlaneSchema>;

  /**
   * @param database - the open control plane
   * @param options - key lifetime, duplicate wait and clock
   */
  constructor(
    database: ControlPlaneDatabase,
    private readonly options: IdempotencyKeysOptions,
  ) {
    this.db = database.db;
  }

  /**
   * Answer a request once per key: the first one's `act` runs while its row is held; duplicates replay its answer.
   * @param scope - owner, route and key
   * @param requestDigest - SHA-256 of the request's canonical body
   * @param act - makes the answer (quickly: the row is held meanwhile); a throw frees the key and passes through
   * @returns the answer, and whether it is a replay
   * @throws IdempotencyKeyReusedError (409) for another body under the key; IdempotencyKeyInUseError (409, retryable)
   *   when the first request is still being answered after the wait; what `act` throws
   */
  async once(
    scope: IdempotencyScope,
    requestDigest: string,
    act: () => Promise<KeptResponse>,
  ): Promise<{ response: KeptResponse; replayed: boolean }> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await sql.raw(`set local lock_timeout = ${Math.max(1, Math.round(this.options.lockWaitMs))}`).execute(trx);
        if (await this.claim(trx, scope, requestDigest))
          return { response: await this.keep(trx, scope, await act()), replayed: false };
        return { response: await this.kept(trx, scope, requestDigest), replayed: true };
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === LOCK_NOT_AVAILABLE) throw inUse(scope);
      throw error;
    }
  }

  /**
   * Claim a key for a long answer: a pending row is committed at once.
   * @returns `claimed` (answer, then {@link settle} or {@link release}), or the answer kept for the key
   * @throws IdempotencyKeyReusedError (409) for another body; IdempotencyKeyInUseError (409, retryable) while the
   *   first request is still being answered
   */
  async begin(scope: IdempotencyScope, requestDigest: string): Promise<'claimed' | { replay: KeptResponse }> {
    if (await this.claim(this.db, scope, requestDigest)) return 'claimed';
    return { replay: await this.kept(this.db, scope, requestDigest) };
  }

  /** Keep the answer of a key {@link begin} claimed. */
  async settle(scope: IdempotencyScope, response: KeptResponse): Promise<void> {
    await this.keep(this.db, scope, response);
  }

  /** Free a key {@link begin} claimed whose request was refused (a retry is answered afresh). */
  async release(scope: IdempotencyScope): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('owner', '=', scope.owner)
      .where('route', '=', scope.route)
      .where('key', '=', scope.key)
      .where('status', 'is', null)
      .execute();
  }

  /**
   * Delete the keys whose lifetime ended.
   * @returns how many went
   */
  async sweep(): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_keys')
      .where('expires_at', '<=', new Date(this.options.now()))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Insert the key's row unless a live one holds it (an expired one is replaced); true when this request is first. */
  private async claim(db: Db, scope: IdempotencyScope, requestDigest: string): Promise<boolean> {
    const now = this.options.now();
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        ...scope,
        request_digest: requestDigest,
        status: null,
        response: null,
        expires_at: new Date(now + this.options.ttlMs),
      })
      .onConflict((conflict) =>
        conflict
          .columns(['owner', 'route', 'key'])
          .doUpdateSet((eb) => ({
            request_digest: eb.ref('excluded.request_digest'),
            status: null,
            response: null,
            created_at: sql`now()`,
            expires_at: eb.ref('excluded.expires_at'),
          }))
          .where('idempotency_keys.expires_at', '<=', new Date(now)),
      )
      .returning('key')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  private async keep(db: Db, scope: IdempotencyScope, response: KeptResponse): Promise<KeptResponse> {
    await db
      .updateTable('idempotency_keys')
      .set({ status: response.status, response: JSON.stringify(response.body) })
      .where('owner', '=', scope.owner)
      .where('route', '=', scope.route)
      .where('key', '=', scope.key)
      .execute();
    return response;
  }

  private async kept(db: Db, scope: IdempotencyScope, requestDigest: string): Promise<KeptResponse> {
    const row = await db
      .selectFrom('idempotency_keys')
      .select(['request_digest', 'status', 'response'])
      .where('owner', '=', scope.owner)
      .where('route', '=', scope.route)
      .where('key', '=', scope.key)
      .executeTakeFirst();
    if (row && row.request_digest !== requestDigest) throw reused(scope);
    if (!row || row.status === null || row.response === null) throw inUse(scope);
    return { status: row.status, body: JSON.parse(row.response) };
  }
}
