/**
 * The methods catalog at the edge (docs/api.md#methods-catalog): its repositories once the control plane is open, who
 * owns and who authors catalog rows, the erasure of deleted methods, and the verdict a saved draft must pass.
 *
 * Glossary: the *owner* of a catalog row is the caller's own id, the same that owns its runs
 * (docs/run-ownership.md#who-owns-a-run): an organization's id for its API keys, the JWT's `user_id`, `single-tenant`
 * for the deployment principal. The *author* is who wrote it: the API key's id, the JWT's `user_id`, `single-tenant`.
 */
import {
  type ControlPlaneDatabase,
  MethodErasures,
  Methods,
  MethodVersions,
  methodFiles,
} from '../shared/database/index.js';
import { InvalidMethodError } from '../shared/errors/index.js';
import type { BundleSource, ModelReferenceCatalog } from '../shared/mthds/index.js';
import type { InvalidReport, ValidReport } from '../shared/wire/index.js';
import type { Identity } from './middleware/authenticate.js';
import type { DiagnosticsPool } from './offload/diagnostics-pool.js';
import type { MethodVerdict } from './offload/method-verdict.js';

/** The catalog's repositories. */
export interface MethodCatalog {
  readonly methods: Methods;
  readonly versions: MethodVersions;
  readonly erasures: MethodErasures;
  /** Runs an erasure after its claim was answered (in the background by default). */
  readonly erase: ErasureScheduler;
}

/**
 * Runs the removal of a deleted method. The default runs it at once, unawaited; a test passes one that holds it.
 * `erase` never rejects.
 */
export type ErasureScheduler = (erase: () => Promise<void>) => void;

/** How the catalog behaves. */
export interface MethodCatalogOptions {
  /** The clock of creations, writes and publishes, epoch ms. */
  now: () => number;
  /** Where erasures run; at once, in the background, by default. */
  erasure?: ErasureScheduler;
}

const inBackground: ErasureScheduler = (erase) => {
  void erase();
};

/**
 * The catalog, once the control plane is open; erasures a stopped process left unfinished are resumed.
 * @param database - the control plane, as it opens (its failure stops the process where it is opened)
 * @param options - the clock and the erasure scheduler
 * @returns the repositories; rejects as `database` does
 */
export function openMethodCatalog(
  database: Promise<ControlPlaneDatabase>,
  options: MethodCatalogOptions,
): Promise<MethodCatalog> {
  const erase = options.erasure ?? inBackground;
  const catalog = database.then((opened): MethodCatalog => {
    const erasures = new MethodErasures(opened);
    erasures.unfinished().then(
      (unfinished) => {
        for (const erasure of unfinished) erase(() => erasures.erase(erasure));
      },
      () => undefined,
    );
    return {
      methods: new Methods(opened, { now: options.now }),
      versions: new MethodVersions(opened, { now: options.now }),
      erasures,
      erase,
    };
  });
  // The entry point that opened the database reports its failure; this derived promise must not report it again.
  catalog.catch(() => undefined);
  return catalog;
}

/**
 * The owner of the catalog rows a caller reads and writes: its own id, the owner of its runs.
 * @param identity - the authenticated caller
 */
export function catalogOwner(identity: Identity): string {
  return identity.userId;
}

/**
 * Who a caller is as the author of a catalog row (`created_by_user_id`, `published_by`): the `user_id` of `GET /v1/me`.
 * @param identity - the authenticated caller
 */
export function catalogAuthor(identity: Identity): string {
  return identity.keyId ?? identity.userId;
}

/**
 * The `.mthds` files of a stored `mthds` text as bundle sources, each labelled with its file name (a raw text, with
 * the method's id).
 * @param mthds - the stored text
 * @param methodId - the method's id; null before it has one (a creation)
 */
export function methodBundleSources(mthds: string, methodId: string | null): BundleSource[] {
  return methodFiles(mthds).map((file) => ({ content: file.content, source: file.name ?? methodId }));
}

/** What judges a draft: the diagnostics pool and the serving deck's names. */
export interface DraftJudge {
  diagnostics: DiagnosticsPool;
  models?: ModelReferenceCatalog;
}

/**
 * The `POST /v1/validate` verdict on a draft, computed in the diagnostics pool.
 * @param judge - the pool and the deck's names
 * @param mthds - the draft's stored `.mthds` text
 * @param methodId - the method's id, the label of a raw text's one file; null before it has one (a creation)
 * @throws ServerBusyError (503), ComputeBudgetExceededError (422) from the pool
 */
export async function draftVerdict(
  judge: DraftJudge,
  mthds: string,
  methodId: string | null,
): Promise<ValidReport | InvalidReport> {
  return (await draftJudgement(judge, mthds, methodId, false)).report;
}

/**
 * The verdict on a draft and, when asked for, the fingerprint of its crate (a publish), computed in the pool.
 * @param judge - the pool and the deck's names
 * @param mthds - the draft's stored `.mthds` text
 * @param methodId - the method's id, the label of a raw text's one file; null before it has one
 * @param crate - whether to fingerprint the crate of a valid draft
 * @throws ServerBusyError (503), ComputeBudgetExceededError (422) from the pool
 */
export function draftJudgement(
  judge: DraftJudge,
  mthds: string,
  methodId: string | null,
  crate: boolean,
): Promise<MethodVerdict> {
  return judge.diagnostics.run('methodVerdict', {
    sources: methodBundleSources(mthds, methodId),
    ...(judge.models ? { models: judge.models } : {}),
    crate,
  });
}

/**
 * Refuse a draft whose verdict is invalid; otherwise the description the catalog derives from it.
 * @param report - the verdict
 * @returns the top-level `description` of its first bundle, or null
 * @throws InvalidMethodError (422, code `method_invalid`) carrying the verdict
 */
export function validDraftDescription(report: ValidReport | InvalidReport): string | null {
  if (!report.is_valid)
    throw new InvalidMethodError(`The method's bundle does not validate: ${report.message}`, { ...report });
  const description = report.bundle_blueprint['description'];
  return typeof description === 'string' && description !== '' ? description : null;
}
