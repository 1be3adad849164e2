/**
 * The methods catalog, kept in the control plane (docs/api.md#methods-catalog): stored methods of an owner, listed,
 * searched, read, written and deleted. Published versions are {@link MethodVersions}'.
 *
 * Glossary: a method's *draft* is its content (`mthds`, `python`, `input_data`); its *token* is `updated_at`, which
 * moves on every write of the draft (a rename moves nothing) and which a compare-and-swap write names. Every read and
 * write is scoped to an *owner* (the caller's own id): another owner's method answers exactly as an unknown one. A
 * method being deleted (`method-erasures.ts`) is listed with its `deletionState`, and refused by every other read
 * and write.
 */
import { randomBytes } from 'node:crypto';
import { MethodUpdateConflictError } from '../errors/index.js';
import { latestVersion, type Method, type MethodSummary, methodOf, ownedRow } from './method-rows.js';
import { methodDigest } from './method-sources.js';
import type { ControlPlaneDatabase } from './open-database.js';
import type { RandomBytes } from './organizations.js';
import { rowCursor, rowPosition } from './page-cursors.js';

/** A draft as written: its sources, its form inputs and the description derived from it. */
export interface MethodDraft {
  /** The `.mthds` source (raw text or JSON `[{name, content}]`). */
  readonly mthds: string;
  /** The Python files (JSON `[{name, content}]`, `''` for none); absent on a write: keep the stored ones. */
  readonly python?: string;
  /** The form inputs; absent on a write: keep the stored ones; null: none. */
  readonly inputData?: Record<string, unknown> | null;
  /** The draft's first bundle's top-level `description` (derived by the caller from the validated bundle). */
  readonly description: string | null;
}

/** A page of the catalog, newest first. */
export interface MethodPage {
  readonly items: MethodSummary[];
  /** Where the next page starts; null after the last. */
  readonly nextCursor: string | null;
}

/** A query of the catalog. */
export interface MethodQuery {
  /** Case-insensitive substring of the name or the description. */
  readonly q?: string;
  /** Page size (checked by the caller: 1 to 200). */
  readonly limit: number;
  /** A `nextCursor` of an earlier page. */
  readonly cursor?: string;
}

/** How the catalog behaves. */
export interface MethodsOptions {
  /** The clock of creations and writes, epoch ms; `Date.now` by default. */
  readonly now?: () => number;
  /** The source of ids; `crypto.randomBytes` by default. */
  readonly random?: RandomBytes;
}

/** Random bytes of a method id (16 base64url characters). */
const ID_BYTES = 12;

/** `%`, `_` and the escape character itself, escaped for a LIKE pattern (PostgreSQL's default escape is `\`). */
function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The methods table, in domain terms. */
export class Methods {
  private readonly now: () => number;
  private readonly random: RandomBytes;

  /**
   * @param database - the open control plane
   * @param options - the clock and the random source
   */
  constructor(
    private readonly database: ControlPlaneDatabase,
    options: MethodsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? randomBytes;
  }

  /**
   * Store a new method, never published.
   * @param owner - the caller's own id
   * @param createdBy - who creates it (the API key's id, the JWT's `user_id`, or `single-tenant`)
   * @param name - its name (checked by the caller)
   * @param draft - its content (Python and form inputs default to none)
   */
  async create(owner: string, createdBy: string, name: string, draft: MethodDraft): Promise<Method> {
    const python = draft.python ?? '';
    const now = new Date(this.now());
    const row = await this.database.db
      .insertInto('methods')
      .values({
        id: `mt_${this.random(ID_BYTES).toString('base64url')}`,
        owner,
        created_by: createdBy,
        name,
        description: draft.description,
        mthds: draft.mthds,
        python,
        input_data: draft.inputData == null ? null : JSON.stringify(draft.inputData),
        draft_digest: methodDigest(draft.mthds, python),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return methodOf(row, null);
  }

  /**
   * A page of an owner's methods, newest first (by creation, then id), those being deleted included.
   * @param owner - the caller's own id
   * @param query - the search, the page size and where the page starts
   * @throws ValidationError (422) for a cursor this catalog did not issue
   */
  async list(owner: string, query: MethodQuery): Promise<MethodPage> {
    let select = this.database.db
      .selectFrom('methods')
      .select(['id', 'name', 'description', 'created_at', 'deletion_state'])
      .where('owner', '=', owner);
    if (query.q) {
      const pattern = likePattern(query.q);
      select = select.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('description', 'ilike', pattern)]));
    }
    if (query.cursor !== undefined) {
      const after = rowPosition('methods', query.cursor);
      select = select.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
    }
    const rows = await select
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit + 1)
      .execute();
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        createdAt: row.created_at,
        deletionState: row.deletion_state,
      })),
      nextCursor:
        rows.length > query.limit && last ? rowCursor('methods', { createdAt: last.created_at, id: last.id }) : null,
    };
  }

  /**
   * An owner's method.
   * @param owner - the caller's own id
   * @param id - its id
   * @throws MethodNotFoundError (404) for an unknown id or another owner's method; MethodBeingDeletedError (409)
   */
  async get(owner: string, id: string): Promise<Method> {
    const row = await ownedRow(this.database.db, owner, id);
    return methodOf(row, await latestVersion(this.database.db, id));
  }

  /**
   * Write a method's draft (and, for a whole rewrite, its name), moving its token.
   * @param owner - the caller's own id
   * @param id - the method
   * @param draft - the new content; absent Python or form inputs keep the stored ones
   * @param options - `name`: rename it too; `expectedUpdatedAt`: write only if the token is still this one
   * @throws MethodNotFoundError (404); MethodBeingDeletedError (409); MethodUpdateConflictError (409) when the token
   *   moved since `expectedUpdatedAt`
   */
  async writeDraft(
    owner: string,
    id: string,
    draft: MethodDraft,
    options: { name?: string; expectedUpdatedAt?: Date } = {},
  ): Promise<Method> {
    return this.database.db.transaction().execute(async (trx) => {
      const current = await ownedRow(trx, owner, id, true);
      const expected = options.expectedUpdatedAt;
      if (expected !== undefined && expected.getTime() !== current.updated_at.getTime())
        throw new MethodUpdateConflictError(
          `Method '${id}' was written at ${current.updated_at.toISOString()}, after the expected_updated_at ${expected.toISOString()}: read it again, then write.`,
        );
      const python = draft.python ?? current.python;
      // a token never repeats, even for two writes within one millisecond
      const updatedAt = new Date(Math.max(this.now(), current.updated_at.getTime() + 1));
      const row = await trx
        .updateTable('methods')
        .set({
          ...(options.name === undefined ? {} : { name: options.name }),
          description: draft.description,
          mthds: draft.mthds,
          python,
          ...(draft.inputData === undefined
            ? {}
            : { input_data: draft.inputData === null ? null : JSON.stringify(draft.inputData) }),
          draft_digest: methodDigest(draft.mthds, python),
          updated_at: updatedAt,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return methodOf(row, await latestVersion(trx, id));
    });
  }

  /**
   * Rename a method; its token does not move.
   * @param owner - the caller's own id
   * @param id - the method
   * @param name - the new name (checked by the caller)
   * @throws MethodNotFoundError (404); MethodBeingDeletedError (409)
   */
  async rename(owner: string, id: string, name: string): Promise<Method> {
    const row = await this.database.db
      .updateTable('methods')
      .set({ name })
      .where('id', '=', id)
      .where('owner', '=', owner)
      .where('deletion_state', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!row) return this.get(owner, id);
    return methodOf(row, await latestVersion(this.database.db, id));
  }
}
