/**
 * The catalog's rows in domain terms (docs/api.md#methods-catalog), and the reads the two repositories share: a
 * method of its owner, refused as unknown for anyone else, and refused while it is being deleted.
 */
import type { Kysely } from 'kysely';
import { MethodBeingDeletedError, MethodNotFoundError } from '../errors/index.js';
import type { ControlPlaneSchema, MethodDeletionState, MethodRow, MethodVersionRow } from './schema.js';

/** A published version without its sources. */
export interface MethodVersionSummary {
  /** From 1, never reused. */
  readonly version: number;
  /** The draft digest it was published from. */
  readonly digest: string;
  /** The fingerprint of its crate (docs/crate.md); null when none was computed. */
  readonly crateFingerprint: string | null;
  readonly description: string | null;
  readonly runnerVersion: string | null;
  /** Who published it: the API key's id, the JWT's `user_id`, or `single-tenant`. */
  readonly publishedBy: string;
  readonly publishedAt: Date;
}

/** A published version with its sources. */
export interface MethodVersion extends MethodVersionSummary {
  readonly methodId: string;
  readonly mthds: string;
  readonly python: string;
}

/** A stored method: its draft and the summary of its latest published version. */
export interface Method {
  /** `mt_…`. */
  readonly id: string;
  /** The caller's own id that owns it (docs/run-ownership.md). */
  readonly owner: string;
  readonly createdBy: string;
  readonly name: string;
  /** The draft's first bundle's top-level `description`. */
  readonly description: string | null;
  /** The draft's `.mthds` source, as stored (raw text or JSON `[{name, content}]`). */
  readonly mthds: string;
  /** The draft's Python files, JSON `[{name, content}]`; `''` for none. */
  readonly python: string;
  readonly inputData: Record<string, unknown> | null;
  /** SHA-256 (hex) of the draft's sources (`methodDigest`). */
  readonly draftDigest: string;
  readonly createdAt: Date;
  /** The draft's token: moves on every write of the draft, and only then. */
  readonly updatedAt: Date;
  /** The latest published version; null when never published. */
  readonly latest: MethodVersionSummary | null;
}

/** A method as the catalog lists it: no sources. */
export interface MethodSummary {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly createdAt: Date;
  /** Set while it is being deleted; null otherwise. */
  readonly deletionState: MethodDeletionState | null;
}

/** Where the queries run: the database or a transaction of it. */
export type CatalogQueries = Kysely<ControlPlaneSchema>;

/**
 * A version row in domain terms, without its sources.
 * @param row - the row
 */
export function versionSummaryOf(row: MethodVersionRow): MethodVersionSummary {
  return {
    version: row.version,
    digest: row.digest,
    crateFingerprint: row.crate_fingerprint,
    description: row.description,
    runnerVersion: row.runner_version,
    publishedBy: row.published_by,
    publishedAt: row.published_at,
  };
}

/**
 * A method row in domain terms.
 * @param row - the row
 * @param latest - its latest published version
 */
export function methodOf(row: MethodRow, latest: MethodVersionSummary | null): Method {
  return {
    id: row.id,
    owner: row.owner,
    createdBy: row.created_by,
    name: row.name,
    description: row.description,
    mthds: row.mthds,
    python: row.python,
    inputData: row.input_data,
    draftDigest: row.draft_digest,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    latest,
  };
}

/**
 * The latest published version of a method.
 * @param queries - the database or a transaction
 * @param methodId - the method
 * @returns its summary, or null when never published
 */
export async function latestVersion(queries: CatalogQueries, methodId: string): Promise<MethodVersionSummary | null> {
  const row = await queries
    .selectFrom('method_versions')
    .selectAll()
    .where('method_id', '=', methodId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? versionSummaryOf(row) : null;
}

/**
 * The refusal of a method the caller may not see.
 * @param id - the id asked for
 */
export function methodNotFound(id: string): MethodNotFoundError {
  return new MethodNotFoundError(`No method '${id}' is known to this caller.`);
}

/**
 * The refusal of a method being deleted.
 * @param id - its id
 */
export function methodBeingDeleted(id: string): MethodBeingDeletedError {
  return new MethodBeingDeletedError(`Method '${id}' is being deleted.`);
}

/**
 * A method's row, for its owner, optionally locked for the rest of the transaction.
 * @param queries - the database or a transaction (`lock` needs a transaction)
 * @param owner - the caller's own id
 * @param id - the method's id
 * @param lock - take the row's lock (`FOR UPDATE`)
 * @returns the row
 * @throws MethodNotFoundError (404) for an unknown id or another owner's method; MethodBeingDeletedError (409) while
 *   it is being deleted
 */
export async function ownedRow(queries: CatalogQueries, owner: string, id: string, lock = false): Promise<MethodRow> {
  const query = queries.selectFrom('methods').selectAll().where('id', '=', id).where('owner', '=', owner);
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw methodNotFound(id);
  if (row.deletion_state !== null) throw methodBeingDeleted(id);
  return row;
}
