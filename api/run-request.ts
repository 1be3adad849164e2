/**
 * The run request of `/v1/execute` and `/v1/start` (spec §2.3; docs/api.md#post-v1execute): its schema, and the source
 * rules that decide which bundle a run uses.
 */

import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type BundleLimits, type LibraryFiles, readBundleTransport } from '../shared/bundles/index.js';
import { InvalidCallbackUrls, InvalidJSON, ValidationError } from '../shared/errors/index.js';
import type { RateTenant } from '../shared/inference/index.js';
import type { MethodProvenance } from '../shared/methods/index.js';
import { type BundleSource, MAX_MULTIPLICITY, type PackageExports } from '../shared/mthds/index.js';
import { callbackUrlProblem } from '../shared/net/index.js';
import { type MethodLink, RUN_PRIORITY, type RunSubmission } from '../shared/orchestration/index.js';
import { parseRequest, refuseAs } from './request-schema.js';
import { laxBooleanOrInteger } from './requests/lax-values.js';
import { METHOD_ID, parseMethodSelector } from './requests/method-id.js';
import { STORAGE_SCOPE } from './requests/storage-scope.js';
import type { RunOwnership } from './run-ownership.js';

/** At most this many completion webhooks per run. */
const MAX_CALLBACK_URLS = 5;

/** What an `output_multiplicity` out of range is told (docs/limits.md#multiplicity). */
const MULTIPLICITY_RANGE = `must be true, false or a count from 1 to ${MAX_MULTIPLICITY} (MAX_MULTIPLICITY)`;

/** `output_multiplicity` as declared: a boolean or a count in range. */
const MULTIPLICITY = z.union([
  z.boolean(),
  z.number().int().min(1, MULTIPLICITY_RANGE).max(MAX_MULTIPLICITY, MULTIPLICITY_RANGE),
]);

/**
 * `output_multiplicity` as sent: the declared value, or a string read in lax mode (docs/api.md#lax-values); anything
 * else is refused in the range's words, quoting a string sent.
 */
const LAX_MULTIPLICITY = z.union(
  [
    MULTIPLICITY,
    z
      .string()
      .transform((text) => laxBooleanOrInteger(text) ?? text)
      .pipe(MULTIPLICITY),
  ],
  {
    error: (issue) =>
      typeof issue.input === 'string' ? `'${issue.input.slice(0, 40)}' ${MULTIPLICITY_RANGE}` : MULTIPLICITY_RANGE,
  },
);

/** The members of a run request that name its bundle. */
interface SourceMembers {
  mthds_contents?: string[] | null | undefined;
  mthds_content?: string | null | undefined;
  bundle_b64?: string | null | undefined;
  files?: Record<string, string> | null | undefined;
  method_ref?: string | null | undefined;
  method_id?: string | null | undefined;
}

/** The inline bundles of a run request: `mthds_contents`, else the legacy `mthds_content`, else none. */
function inlineContents(body: SourceMembers): string[] {
  return body.mthds_contents ?? (body.mthds_content ? [body.mthds_content] : []);
}

/**
 * Whether a run request sends its sources inline: `mthds_contents` (or `mthds_content`), or a whole bundle.
 * @param body - a run request
 */
export function hasInlineSources(body: SourceMembers): boolean {
  return inlineContents(body).length > 0 || Boolean(body.bundle_b64) || Boolean(body.files);
}

/**
 * The source rules (spec §2.2–2.3, docs/api.md#post-v1execute, docs/methods.md#method_id): a run's bundle comes one
 * way — inline `mthds_contents`, a whole bundle (`bundle_b64` / `files`), a `method_ref` or a stored method
 * (`method_id`) — and some way; a bare `method_id` beside inline sources links the run to its method. The first rule
 * broken answers, a 422 ValidationError.
 */
function checkSources(body: SourceMembers, context: z.RefinementCtx): void {
  const contents = inlineContents(body);
  const hasBundle = Boolean(body.bundle_b64) || Boolean(body.files);
  const methodId = body.method_id ? parseMethodSelector(body.method_id) : undefined;
  if (hasBundle && contents.length > 0)
    refuseAs(
      context,
      ValidationError,
      'A method bundle (bundle_b64 / files) and inline mthds_contents are mutually exclusive; send one or the other.',
    );
  else if (body.method_ref && contents.length > 0)
    refuseAs(
      context,
      ValidationError,
      'method_ref and inline mthds_contents are mutually exclusive; send one or the other.',
    );
  else if (body.method_ref && hasBundle)
    refuseAs(
      context,
      ValidationError,
      'method_ref and a method bundle (bundle_b64 / files) are mutually exclusive; send one or the other.',
    );
  else if (body.method_ref && methodId)
    refuseAs(
      context,
      ValidationError,
      'method_ref and method_id are mutually exclusive: a method_ref run carries its own provenance; send one or the other.',
    );
  else if (methodId?.suffixed && (hasBundle || contents.length > 0))
    refuseAs(
      context,
      ValidationError,
      `Beside inline sources, method_id only links the run to its method, so it takes the bare id '${methodId.methodId}': the inline sources run, not a version of the method.`,
    );
  else if (!body.method_ref && !methodId && !hasBundle && contents.length === 0)
    refuseAs(
      context,
      ValidationError,
      'pipe_code and mthds_contents cannot both be empty. This server keeps no library between requests: send the bundle text in mthds_contents (and pipe_code to pick a pipe other than its main_pipe).',
    );
}

/**
 * The run request schema of `/v1/execute` and `/v1/start` (and the OpenAPI document's `RunRequest`), the source rules
 * across members included; unknown members are kept (and ignored).
 */
export const RUN_REQUEST = z
  .looseObject({
    pipe_code: z.string().nullish().meta({ description: "The pipe to run; default: the bundle's `main_pipe`." }),
    mthds_contents: z
      .array(z.string())
      .nullish()
      .meta({ description: 'The bundles (`.mthds` texts), loaded together.' }),
    mthds_content: z.string().nullish().meta({ description: 'Legacy: one bundle, when `mthds_contents` is absent.' }),
    inputs: z
      .unknown()
      .optional()
      .meta({ description: 'Input name → value (docs/api.md#inputs), or a whole working memory.' }),
    output_name: z.string().nullish().meta({ description: 'Name of the final output (default `main_stuff`).' }),
    output_multiplicity: LAX_MULTIPLICITY.nullish().meta({
      description: `\`true\`, \`false\` or N (1 to ${MAX_MULTIPLICITY}, docs/limits.md#multiplicity): overrides the multiplicity of the pipe's output. A string is read as the reference reads it: \`"1"\` or \`"true"\` is true, \`"0"\` or \`"false"\` false, \`"3"\` 3 (docs/api.md#lax-values).`,
    }),
    dynamic_output_concept_ref: z.string().nullish().meta({ description: 'Concept of a `native.Dynamic` output.' }),
    bundle_b64: z.string().nullish().meta({ description: 'A whole bundle as a base64 zip (docs/bundles.md).' }),
    files: z
      .record(z.string(), z.string())
      .nullish()
      .meta({ description: 'A whole bundle as relative path → text (docs/bundles.md).' }),
    method_ref: z.string().min(1).max(512).nullish().meta({ description: 'A method by address (docs/methods.md).' }),
    method_id: METHOD_ID.nullish(),
    orchestration_mode: z.string().nullish().meta({ description: "The deployment's mode; another is 403." }),
    storage_scope: STORAGE_SCOPE.nullish().meta({ description: '1–3 path-safe segments (docs/run-ownership.md).' }),
    pipeline_run_id: z.string().min(1).max(128).nullish().meta({ description: 'Honoured by `/v1/start` only.' }),
    callback_urls: z
      .array(z.string())
      .superRefine((urls, context) => {
        if (urls.length > MAX_CALLBACK_URLS)
          refuseAs(
            context,
            InvalidCallbackUrls,
            `callback_urls: at most ${MAX_CALLBACK_URLS} URLs are accepted, got ${urls.length}.`,
          );
      })
      .nullish()
      .meta({ description: 'At most 5 public http(s) URLs, sent the result when a started run finishes.' }),
    timeout_seconds: z.number().int().positive().nullish().meta({
      description:
        'Stop the run `TIMED_OUT` this many seconds after it is accepted, wherever it is then: waiting in the queue or running (a positive integer, at most `RUN_TIMEOUT_MAX_SECONDS`; docs/cancellation.md#deadlines).',
    }),
    max_cost_usd: z.number().positive().max(1_000_000).nullish().meta({
      description:
        'Budget of the run in USD (> 0): an inference call that would take the run over it is not made and the run fails with `RunBudgetExceededError` (docs/inference.md#run-budget).',
    }),
    priority: z.number().int().min(RUN_PRIORITY.min).max(RUN_PRIORITY.max).nullish().meta({
      description:
        'Queue mode: the run’s priority among waiting runs, 0 to 10, higher first (default 5); at most the organization’s priority ceiling (docs/fair-dispatch.md#priorities).',
    }),
  })
  .superRefine(checkSources);

/** A parsed run request. */
export type RunRequestBody = z.infer<typeof RUN_REQUEST>;

/**
 * Parse a run body: it must be a JSON object, then match the schema.
 * @throws InvalidJSON (422) for a non-object body; ValidationError (422) naming each bad field, or for sources that
 *   break the source rules; InvalidCallbackUrls (422) for more than 5 `callback_urls`
 */
export function parseRunRequest(body: unknown): RunRequestBody {
  if (body === undefined) throw new InvalidJSON('Request body is empty: send a JSON object.');
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new InvalidJSON('Request body must be a JSON object');
  return parseRequest(RUN_REQUEST, body);
}

/** What a run executes: its bundle sources and, for a `bundle_b64` / `files` bundle, its library files. */
export interface RunSources {
  sources: BundleSource[];
  libraryFiles?: LibraryFiles;
  /** A fetched `method_ref`'s `[exports]` (api/run-method.ts); absent otherwise. */
  packageExports?: PackageExports;
}

/**
 * A run's sources once a `method_ref` is fetched or a `method_id` looked up: the pipe to run (`pipe_code`, else the
 * fetched manifest's `main_pipe`, else null for the library's main pipe), where a fetched method came from (null
 * otherwise) and the stored method the run runs or is linked to (null for none; docs/methods.md#method_id).
 */
export interface ResolvedRunSources extends RunSources {
  pipeCode: string | null;
  methodProvenance: MethodProvenance | null;
  methodLink: MethodLink | null;
}

/**
 * The bundle sources of a run whose request passed {@link RUN_REQUEST} (and so its source rules).
 * @param body - a parsed run request
 * @param bundleLimits - ceilings of a `bundle_b64` / `files` bundle
 * @returns the bundles to load, with the library files of a submitted bundle (no bundles for a `method_ref`, whose
 *   bundles come from the fetch: api/run-method.ts)
 * @throws for a submitted bundle, InvalidBundle (422), InvalidBase64 (400), PayloadTooLarge (413),
 *   CustomCodeRequiresSandbox (403)
 * @see spec §2.2–2.3, docs/api.md#post-v1execute, docs/bundles.md#whole-bundle-transports
 */
export async function runSources(body: RunRequestBody, bundleLimits: BundleLimits): Promise<RunSources> {
  if (body.method_ref) return { sources: [] };
  if (body.bundle_b64 || body.files) return readBundleTransport(body, bundleLimits);
  return { sources: inlineContents(body).map((content) => ({ content, source: null })) };
}

/**
 * Check `callback_urls` (spec §2.3, §6 rule 3; docs/bundles.md#request-extras) against the deployment's host policy
 * (their
 * count is {@link RUN_REQUEST}'s).
 * @param urls - the request's URLs
 * @param allowPrivateHosts - `CALLBACK_ALLOW_PRIVATE_HOSTS`
 * @throws InvalidCallbackUrls (422) naming each refused URL and why
 */
export function checkCallbackUrls(urls: string[], allowPrivateHosts: boolean): void {
  const problems = urls.flatMap((url, index) => {
    const problem = callbackUrlProblem(url, allowPrivateHosts);
    return problem === undefined ? [] : [`callback_urls.${index} (${url}) ${problem}`];
  });
  if (problems.length > 0) throw new InvalidCallbackUrls(`${problems.join('; ')}.`);
}

/**
 * Check `timeout_seconds` against the deployment's bound (its shape is {@link RUN_REQUEST}'s).
 * @param timeoutSeconds - the request's `timeout_seconds`
 * @param maxSeconds - `RUN_TIMEOUT_MAX_SECONDS`
 * @throws ValidationError (422) for a timeout over the bound
 */
export function checkTimeout(timeoutSeconds: number | null | undefined, maxSeconds: number): void {
  if (timeoutSeconds && timeoutSeconds > maxSeconds)
    throw new ValidationError(
      `body.timeout_seconds: ${timeoutSeconds} is more than this deployment allows (RUN_TIMEOUT_MAX_SECONDS = ${maxSeconds}).`,
    );
}

/**
 * Turn a checked run request into a submission.
 * @param body - the parsed request
 * @param run - its bundle sources and library files
 * @param context - request id, the run's owner and storage scope (`runOwnership`, api/run-ownership.ts), whether
 *   the client's `pipeline_run_id` is honoured (`/v1/start`), and the organization whose share of the provider rate
 *   limits its calls count against (none: not capped)
 */
export function toSubmission(
  body: RunRequestBody,
  run: ResolvedRunSources,
  context: { requestId: string; ownership: RunOwnership; honourRunId: boolean; rateTenant?: RateTenant | undefined },
): RunSubmission {
  return {
    sources: run.sources,
    ...(run.libraryFiles ? { libraryFiles: run.libraryFiles } : {}),
    ...(run.packageExports ? { packageExports: run.packageExports } : {}),
    pipeCode: run.pipeCode,
    methodProvenance: run.methodProvenance,
    inputs: body.inputs,
    outputName: body.output_name ?? null,
    outputMultiplicity: body.output_multiplicity ?? null,
    dynamicOutputConceptRef: body.dynamic_output_concept_ref ?? null,
    ...(context.honourRunId && body.pipeline_run_id
      ? { pipelineRunId: body.pipeline_run_id }
      : { pipelineRunId: randomUUID(), runIdGenerated: true }),
    requestId: context.requestId,
    owner: context.ownership.owner,
    storageScope: context.ownership.storageScope,
    callbackUrls: body.callback_urls ?? [],
    maxCostUsd: body.max_cost_usd ?? null,
    ...(body.timeout_seconds ? { timeoutSeconds: body.timeout_seconds } : {}),
    ...(run.methodLink ? { methodLink: run.methodLink } : {}),
    ...(typeof body.priority === 'number' ? { priority: body.priority } : {}),
    ...(context.rateTenant ? { rateTenant: context.rateTenant } : {}),
  };
}
