/**
 * Run ownership at the edge: who may use which scope (spec §5 rule 5, §7.2
 * "storage-ownership mismatch"), who owns a run, and who may read it (docs/run-ownership.md).
 *
 * Glossary: the *owner* of a run is the caller's own id (`Identity.userId`); a *scope* is the storage prefix a run
 * writes under; a *granted* scope is a prefix a jwt caller's token lists in its `storage_scopes` claim.
 */
import { RunNotFoundError, StorageOwnershipMismatchError } from '../shared/errors/index.js';
import {
  inputStorageRefs,
  isRunReadable,
  type RunObjects,
  type RunRecord,
  type RunStore,
} from '../shared/orchestration/index.js';
import type { Identity } from './middleware/authenticate.js';

/** Who owns a run and where it writes. */
export interface RunOwnership {
  /** The caller's own id: `user_id` of the token (jwt), its key's organization (an API key), else `single-tenant`. */
  owner: string;
  /** The effective `storage_scope`: as requested, else the owner's id (spec §2.3). */
  storageScope: string;
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= segments.length && prefix.every((segment, index) => segment === segments[index]);
}

/**
 * Whether a caller may use a storage scope (docs/run-ownership.md#storage-scope): the deployment principal any; a
 * caller a scope whose first segment is its own id, or one under a prefix its token's `storage_scopes` claim grants.
 * @param identity - the caller
 * @param scope - a valid `storage_scope`
 */
export function mayUseScope(identity: Identity, scope: string): boolean {
  if (identity.storageScopes === 'any') return true;
  const segments = scope.split('/');
  return (
    segments[0] === identity.userId ||
    identity.storageScopes.some((granted) => startsWith(segments, granted.split('/')))
  );
}

/**
 * Decide a run's owner and effective storage scope, refusing a scope the caller does not own.
 *
 * The deployment principal (`api_key`, `none`) may use any valid scope. A `jwt` caller may use a scope whose first
 * segment is its own `user_id`, or one equal to or under (segment by segment) a prefix of its token's
 * `storage_scopes` claim; an omitted scope is the caller's own id.
 * @param identity - the authenticated caller
 * @param requested - the request's `storage_scope`, already shape-checked by {@link STORAGE_SCOPE}; null or absent
 *   when omitted
 * @throws StorageOwnershipMismatchError (403, code `storage_ownership_mismatch`) for a scope the caller may not use
 * @see spec §2.3, §5 rule 5, §7.2; docs/run-ownership.md
 */
export function runOwnership(identity: Identity, requested: string | null | undefined): RunOwnership {
  if (requested && !mayUseScope(identity, requested)) {
    throw new StorageOwnershipMismatchError(
      `storage_scope '${requested}' is not yours: its first segment must be your own user id, or the scope must lie under one your token's storage_scopes claim grants.`,
    );
  }
  return { owner: identity.userId, storageScope: requested ?? identity.userId };
}

/**
 * Refuse a run whose inputs name a stored object it may not read (docs/uploads.md#in-inputs): every
 * `pipelex-storage://` (or `mthds-storage:`) reference must lie under the caller's own id or under the run's scope.
 * @param inputs - the request's `inputs`
 * @param ownership - the run's owner and effective scope ({@link runOwnership})
 * @throws InvalidStorageUriError (422, code `invalid_storage_uri`) for a malformed `pipelex-storage://` reference;
 *   StorageOwnershipMismatchError (403) for another owner's
 */
export function checkInputReferences(inputs: unknown, ownership: RunOwnership): void {
  const run = { owner: ownership.owner, scope: ownership.storageScope };
  for (const [reference, key] of inputStorageRefs(inputs))
    if (!isRunReadable(key, run))
      throw new StorageOwnershipMismatchError(
        `The input reference '${reference}' names an object of '${key.scope}', which is not yours: a run reads only the objects of its owner.`,
      );
}

/**
 * Read a run's record on behalf of a caller: its owner gets it; anyone else gets exactly what an unknown id gets.
 * @param store - the run store
 * @param runId - the `pipeline_run_id` of the route
 * @param identity - the authenticated caller
 * @returns the record
 * @throws RunNotFoundError (404, code `run_not_found`) for an unknown or expired id and for another owner's run;
 *   QueueUnavailableError (503) when the store's Redis is down
 * @see docs/run-ownership.md#visibility
 */
export async function readOwnedRun(store: RunStore, runId: string, identity: Identity): Promise<RunRecord> {
  const record = await store.getOwned(runId, identity.userId);
  if (!record)
    throw new RunNotFoundError(`No run '${runId}' is known (runs are kept RUN_RECORD_TTL_SECONDS after they finish).`);
  return record;
}

/**
 * Read a run on behalf of a caller, from its record or, once the record expired, from the finished run kept in storage
 * (`<scope>/results/`, docs/storage.md#results-beyond-the-run-record). The kept run is looked for under
 * `requestedScope`, else under the
 * caller's own id (the default scope of its runs).
 * @param store - the run store
 * @param objects - the run objects in storage
 * @param runId - the `pipeline_run_id` of the route
 * @param identity - the authenticated caller
 * @param requestedScope - the route's `storage_scope` query parameter, shape-checked; absent for the caller's own id
 * @returns the record (live or kept)
 * @throws StorageOwnershipMismatchError (403) for a `requestedScope` the caller may not use; RunNotFoundError (404)
 *   when neither holds a run of the caller with this id; QueueUnavailableError / StorageUnavailableError (503)
 */
export async function readOwnedOrKeptRun(
  store: RunStore,
  objects: RunObjects,
  runId: string,
  identity: Identity,
  requestedScope: string | undefined,
): Promise<RunRecord> {
  const { storageScope } = runOwnership(identity, requestedScope);
  const live = await store.getOwned(runId, identity.userId);
  if (live) return live;
  const kept = await objects.readFinished(storageScope, runId);
  if (kept?.owner === identity.userId) return kept;
  throw new RunNotFoundError(`No run '${runId}' is known (runs are kept RUN_RECORD_TTL_SECONDS after they finish).`);
}
