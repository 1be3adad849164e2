/**
 * The published versions of the catalog's methods (docs/api.md#methods-catalog): publishing a draft, listing and
 * reading versions, and selecting what a `method_id` runs (docs/methods.md#method_id).
 *
 * A version is an immutable copy of a draft, numbered from 1 per method and never reused; publishing a draft whose
 * digest is the latest version's publishes nothing (`unchanged`). Publishes of one method are serialised by the lock
 * of its row, so two concurrent ones never take the same number.
 */
import { MethodNotPublishedError, MethodUpdateConflictError, MethodVersionNotFoundError } from '../errors/index.js';
import {
  latestVersion,
  type Method,
  type MethodVersion,
  type MethodVersionSummary,
  methodOf,
  ownedRow,
  versionSummaryOf,
} from './method-rows.js';
import type { ControlPlaneDatabase } from './open-database.js';
import { versionCursor, versionPosition } from './page-cursors.js';
import type { MethodVersionRow } from './schema.js';

/** What a publish did: wrote a new version, or found the draft already published as the latest one. */
export interface MethodPublication {
  readonly outcome: 'published' | 'unchanged';
  /** The new version, or the latest one the draft equals. */
  readonly version: MethodVersionSummary;
  /** The method after the publish. */
  readonly method: Method;
}

/** What to publish. */
export interface MethodPublishRequest {
  /** The digest of the draft the caller validated: the publish is refused (409) if the draft moved since. */
  readonly validatedDigest: string;
  /** The caller's `expected_draft_updated_at`, if any: the publish is refused (409) unless it is still the token. */
  readonly expectedUpdatedAt?: Date;
  /** Who publishes (the API key's id, the JWT's `user_id`, or `single-tenant`). */
  readonly publishedBy: string;
  /** The runner version that validated the draft. */
  readonly runnerVersion: string;
  /** The fingerprint of the draft's crate (docs/crate.md), when it could be computed. */
  readonly crateFingerprint: string | null;
}

/** A page of versions, newest first. */
export interface MethodVersionPage {
  readonly items: MethodVersionSummary[];
  readonly nextCursor: string | null;
}

/** What a `method_id` selects: the latest published version, the draft, or version n. */
export type MethodVersionSelector = 'latest' | 'draft' | number;

/** The sources a selector names, and which version they are (null for the draft). */
export interface SelectedSources {
  readonly methodId: string;
  readonly mthds: string;
  readonly python: string;
  readonly version: number | null;
}

/** A published version as an owner's tools list it (docs/mcp.md#method-tools): with its method's name and sources. */
export interface PublishedVersion extends MethodVersion {
  /** The method's current name. */
  readonly name: string;
}

/** Where a page of an owner's published versions starts: after this method's version. */
export interface PublishedPosition {
  readonly methodId: string;
  readonly version: number;
}

/** A page of an owner's published versions, by method id, then newest version first. */
export interface PublishedVersionPage {
  readonly items: PublishedVersion[];
  /** Where the next page starts; null after the last. */
  readonly next: PublishedPosition | null;
}

function versionOf(row: MethodVersionRow): MethodVersion {
  return { ...versionSummaryOf(row), methodId: row.method_id, mthds: row.mthds, python: row.python };
}

function versionNotFound(methodId: string, version: number): MethodVersionNotFoundError {
  return new MethodVersionNotFoundError(`Method '${methodId}' has no published version ${version}.`);
}

/** The method_versions table, in domain terms. */
export class MethodVersions {
  private readonly now: () => number;

  /**
   * @param database - the open control plane
   * @param options - the clock of publishes, epoch ms (`Date.now` by default)
   */
  constructor(
    private readonly database: ControlPlaneDatabase,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Publish a method's draft as its next version, unless it equals the latest one.
   * @param owner - the caller's own id
   * @param id - the method
   * @param request - the validated digest, the caller's expected token, the publisher and the runner version
   * @throws MethodNotFoundError (404); MethodBeingDeletedError (409); MethodUpdateConflictError (409) when the draft
   *   moved since the caller's token or since it was validated
   */
  async publish(owner: string, id: string, request: MethodPublishRequest): Promise<MethodPublication> {
    return this.database.db.transaction().execute(async (trx) => {
      const row = await ownedRow(trx, owner, id, true);
      const expected = request.expectedUpdatedAt;
      if (
        (expected !== undefined && expected.getTime() !== row.updated_at.getTime()) ||
        row.draft_digest !== request.validatedDigest
      )
        throw new MethodUpdateConflictError(
          `The draft of method '${id}' was written at ${row.updated_at.toISOString()}, after the draft this publish names: read it again, then publish.`,
        );
      const latest = await latestVersion(trx, id);
      if (latest?.digest === row.draft_digest)
        return { outcome: 'unchanged', version: latest, method: methodOf(row, latest) };
      const inserted = await trx
        .insertInto('method_versions')
        .values({
          method_id: id,
          version: (latest?.version ?? 0) + 1,
          mthds: row.mthds,
          python: row.python,
          digest: row.draft_digest,
          crate_fingerprint: request.crateFingerprint,
          description: row.description,
          runner_version: request.runnerVersion,
          published_by: request.publishedBy,
          published_at: new Date(this.now()),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const version = versionSummaryOf(inserted);
      return { outcome: 'published', version, method: methodOf(row, version) };
    });
  }

  /**
   * A page of a method's versions, newest first.
   * @param owner - the caller's own id
   * @param id - the method
   * @param query - the page size (checked by the caller: 1 to 100) and where the page starts
   * @throws MethodNotFoundError (404); MethodBeingDeletedError (409); ValidationError (422) for a foreign cursor
   */
  async list(owner: string, id: string, query: { limit: number; cursor?: string }): Promise<MethodVersionPage> {
    await ownedRow(this.database.db, owner, id);
    let select = this.database.db.selectFrom('method_versions').selectAll().where('method_id', '=', id);
    if (query.cursor !== undefined) select = select.where('version', '<', versionPosition(query.cursor));
    const rows = await select
      .orderBy('version', 'desc')
      .limit(query.limit + 1)
      .execute();
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map(versionSummaryOf),
      nextCursor: rows.length > query.limit && last ? versionCursor(last.version) : null,
    };
  }

  /**
   * One version of a method, with its sources.
   * @param owner - the caller's own id
   * @param id - the method
   * @param version - its number
   * @throws MethodNotFoundError (404); MethodBeingDeletedError (409); MethodVersionNotFoundError (404)
   */
  async get(owner: string, id: string, version: number): Promise<MethodVersion> {
    await ownedRow(this.database.db, owner, id);
    const row = await this.database.db
      .selectFrom('method_versions')
      .selectAll()
      .where('method_id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!row) throw versionNotFound(id, version);
    return versionOf(row);
  }

  /**
   * A page of every published version of an owner's methods, but those of methods being deleted.
   * @param owner - the caller's own id
   * @param query - the page size and where the page starts (after a position)
   */
  async published(owner: string, query: { limit: number; after?: PublishedPosition }): Promise<PublishedVersionPage> {
    let select = this.database.db
      .selectFrom('method_versions')
      .innerJoin('methods', 'methods.id', 'method_versions.method_id')
      .selectAll('method_versions')
      .select('methods.name')
      .where('methods.owner', '=', owner)
      .where('methods.deletion_state', 'is', null);
    const after = query.after;
    if (after)
      select = select.where((eb) =>
        eb.or([
          eb('method_versions.method_id', '>', after.methodId),
          eb.and([
            eb('method_versions.method_id', '=', after.methodId),
            eb('method_versions.version', '<', after.version),
          ]),
        ]),
      );
    const rows = await select
      .orderBy('method_versions.method_id', 'asc')
      .orderBy('method_versions.version', 'desc')
      .limit(query.limit + 1)
      .execute();
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map((row) => ({ ...versionOf(row), name: row.name })),
      next: rows.length > query.limit && last ? { methodId: last.method_id, version: last.version } : null,
    };
  }

  /**
   * The sources a `method_id` selects (docs/methods.md#method_id): `latest` is the latest published version, or the
   * draft of a method never published; `draft` the draft; n version n.
   * @param owner - the caller's own id
   * @param id - the method
   * @param selector - which content
   * @throws MethodNotFoundError (404); MethodBeingDeletedError (409); MethodNotPublishedError (409) for a version of a
   *   method never published; MethodVersionNotFoundError (404) for a version it does not have
   */
  async select(owner: string, id: string, selector: MethodVersionSelector): Promise<SelectedSources> {
    const row = await ownedRow(this.database.db, owner, id);
    const draft = { methodId: id, mthds: row.mthds, python: row.python, version: null };
    if (selector === 'draft') return draft;
    const latest = await latestVersion(this.database.db, id);
    if (selector === 'latest' && latest === null) return draft;
    if (latest === null)
      throw new MethodNotPublishedError(
        `Method '${id}' was never published: it has a draft only, which '${id}@draft' names.`,
      );
    const wanted = selector === 'latest' ? latest.version : selector;
    const version = await this.database.db
      .selectFrom('method_versions')
      .selectAll()
      .where('method_id', '=', id)
      .where('version', '=', wanted)
      .executeTakeFirst();
    if (!version) throw versionNotFound(id, wanted);
    return { methodId: id, mthds: version.mthds, python: version.python, version: version.version };
  }
}
