/**
 * The methods catalog in the shapes of the hosted catalog routes (docs/api.md#methods-catalog): snake_case members,
 * times as ISO 8601 UTC strings, `python` as its stored JSON text (`''` for none).
 */
import type {
  Method,
  MethodErasure,
  MethodPage,
  MethodPublication,
  MethodVersion,
  MethodVersionPage,
  MethodVersionSummary,
} from '../database/index.js';

/** A published version without its sources (`GET …/versions`, `latest_published`, a publish's `version`). */
export interface MethodVersionSummaryData {
  version: number;
  /** The digest of the draft it was published from (64 hex). */
  source_digest: string;
  /** The fingerprint of its crate, as `POST /v1/resolve` answers it (docs/crate.md); null when not computed. */
  crate_fingerprint: string | null;
  runner_version: string | null;
  description: string | null;
  published_at: string;
  published_by: string;
}

/** A published version with its sources (`GET …/versions/{n}`). */
export interface MethodVersionData extends MethodVersionSummaryData {
  method_id: string;
  mthds: string;
  python: string;
}

/** A stored method (`GET /v1/methods/{id}` and every write): its draft and its latest published version. */
export interface MethodData {
  method_id: string;
  /** The method's owner: the caller's own id (an organization's id for its API keys). */
  org_id: string;
  created_by_user_id: string;
  name: string;
  mthds: string;
  python: string;
  input_data: Record<string, unknown> | null;
  description: string | null;
  created_at: string;
  /** The draft's token, for `expected_updated_at` and `expected_draft_updated_at`. */
  updated_at: string;
  draft_digest: string;
  latest_version: number | null;
  latest_published: MethodVersionSummaryData | null;
}

/** A method as the catalog lists it; `deletion_state` only while it is being deleted. */
export interface MethodListItem {
  method_id: string;
  name: string;
  description: string | null;
  created_at: string;
  deletion_state?: string;
}

/** `GET /v1/methods`. */
export interface MethodListPage {
  items: MethodListItem[];
  next_cursor: string | null;
}

/** `GET /v1/methods/{id}/versions`. */
export interface MethodVersionListPage {
  items: MethodVersionSummaryData[];
  next_cursor: string | null;
}

/** The 202 of `DELETE /v1/methods/{id}`. */
export interface MethodDeletionAccepted {
  method_id: string;
  deletion_state: string;
  deletion_job_id: string;
}

/** The answer of `POST /v1/methods/{id}/publish`, discriminated on `outcome`. */
export type MethodPublishAnswer =
  | { outcome: 'published' | 'unchanged'; version: MethodVersionSummaryData; method: MethodData }
  | {
      outcome: 'refused';
      reason: 'invalid' | 'not_runnable';
      message: string;
      /** The `POST /v1/validate` verdict of the draft, as that route answers it. */
      validation: unknown;
      method: MethodData;
    };

/**
 * A version's summary.
 * @param version - the version as kept
 */
function methodVersionSummaryData(version: MethodVersionSummary): MethodVersionSummaryData {
  return {
    version: version.version,
    source_digest: version.digest,
    crate_fingerprint: version.crateFingerprint,
    runner_version: version.runnerVersion,
    description: version.description,
    published_at: version.publishedAt.toISOString(),
    published_by: version.publishedBy,
  };
}

/**
 * A version with its sources.
 * @param version - the version as kept
 */
export function methodVersionData(version: MethodVersion): MethodVersionData {
  return {
    method_id: version.methodId,
    ...methodVersionSummaryData(version),
    mthds: version.mthds,
    python: version.python,
  };
}

/**
 * A stored method.
 * @param method - the method as kept
 */
export function methodData(method: Method): MethodData {
  return {
    method_id: method.id,
    org_id: method.owner,
    created_by_user_id: method.createdBy,
    name: method.name,
    mthds: method.mthds,
    python: method.python,
    input_data: method.inputData,
    description: method.description,
    created_at: method.createdAt.toISOString(),
    updated_at: method.updatedAt.toISOString(),
    draft_digest: method.draftDigest,
    latest_version: method.latest?.version ?? null,
    latest_published: method.latest ? methodVersionSummaryData(method.latest) : null,
  };
}

/**
 * A page of the catalog.
 * @param page - the page as read
 */
export function methodListPage(page: MethodPage): MethodListPage {
  return {
    items: page.items.map((item) => ({
      method_id: item.id,
      name: item.name,
      description: item.description,
      created_at: item.createdAt.toISOString(),
      ...(item.deletionState === null ? {} : { deletion_state: item.deletionState }),
    })),
    next_cursor: page.nextCursor,
  };
}

/**
 * A page of a method's versions.
 * @param page - the page as read
 */
export function methodVersionListPage(page: MethodVersionPage): MethodVersionListPage {
  return { items: page.items.map(methodVersionSummaryData), next_cursor: page.nextCursor };
}

/**
 * The acceptance of a deletion.
 * @param erasure - the claimed erasure
 */
export function methodDeletionAccepted(erasure: MethodErasure): MethodDeletionAccepted {
  return { method_id: erasure.methodId, deletion_state: erasure.state, deletion_job_id: erasure.jobId };
}

/**
 * The answer of a publish that wrote a version or found the draft published.
 * @param publication - what the publish did
 */
export function methodPublished(publication: MethodPublication): MethodPublishAnswer {
  return {
    outcome: publication.outcome,
    version: methodVersionSummaryData(publication.version),
    method: methodData(publication.method),
  };
}
