/**
 * The older unversioned run routes `POST /pipeline/execute` and `POST /pipeline/start` (spec §4.12;
 * docs/api.md#older-unversioned-routes), kept for earlier clients: thin adapters onto the path of `/v1/execute` and
 * `/v1/start` (`run.ts`). The older request (one bundle as `mthds_content`, `output_multiplicity` as `single`,
 * `variable` or a count, `dynamic_output_concept_code`) is checked against the spec's four rules and rewritten as a
 * `/v1` run request; the answer is the `/v1` body with the older envelope members `status`, `message` and `error` in
 * front. Both answer 200 (the older reference's status, `/pipeline/start` included); failures are the `/v1` routes'
 * problem documents.
 */
import { Router } from 'express';
import { z } from 'zod';
import { PipeNotFoundError, ValidationError } from '../../shared/errors/index.js';
import { MAX_MULTIPLICITY } from '../../shared/mthds/index.js';
import { jsonBody } from '../body/json-body.js';
import { EXAMPLE_BUNDLE, EXAMPLE_INPUTS } from '../openapi/examples.js';
import type { RequestBodySpec, RouteSpec } from '../openapi/route-spec.js';
import { LEGACY_RUN_RESULT, LEGACY_RUN_START } from '../openapi/schemas/legacy.js';
import { parseRequest, refuseAs } from '../request-schema.js';
import { EXECUTE_ROUTE, executeRun, type RunRouteOptions, START_ROUTE, startRun } from './run.js';

const COUNT_RANGE = `must be single, variable or a count from 1 to ${MAX_MULTIPLICITY} (MAX_MULTIPLICITY)`;

/** The detail of a request naming neither a pipe nor a bundle (spec §4.12 rule 1). */
const NOTHING_TO_RUN =
  'At least one of pipe_code or mthds_content must be given: send the bundle text in mthds_content (and pipe_code to pick a pipe other than its main_pipe).';

/**
 * The older run request (spec §4.12): unknown members are kept and ignored, an empty string counts as absent, and a
 * request naming neither a pipe nor a bundle is refused (rule 1).
 */
const LEGACY_RUN_REQUEST = z
  .looseObject({
    pipe_code: z.string().nullish().meta({ description: "The pipe to run; default: the bundle's `main_pipe`." }),
    mthds_content: z.string().nullish().meta({ description: 'One bundle (`.mthds` text).' }),
    inputs: z.unknown().optional().meta({ description: 'Input name → value (docs/api.md#inputs).' }),
    output_name: z.string().nullish().meta({ description: 'Name of the final output (default `main_stuff`).' }),
    output_multiplicity: z
      .union([z.enum(['single', 'variable']), z.number().int().min(1, COUNT_RANGE).max(MAX_MULTIPLICITY, COUNT_RANGE)])
      .nullish()
      .meta({ description: '`single`, `variable` or a count N: overrides the multiplicity of the output.' }),
    dynamic_output_concept_code: z.string().nullish().meta({ description: 'Concept of a `native.Dynamic` output.' }),
  })
  .superRefine((body, context) => {
    if (!body.pipe_code && !body.mthds_content) refuseAs(context, ValidationError, NOTHING_TO_RUN);
  })
  .meta({ id: 'LegacyPipelineRequest', description: 'The older run request (spec §4.12).' });

type LegacyRunRequest = z.infer<typeof LEGACY_RUN_REQUEST>;

const LEGACY_RUN_BODY: RequestBodySpec = {
  id: 'LegacyPipelineRequest',
  schema: LEGACY_RUN_REQUEST,
  example: { mthds_content: EXAMPLE_BUNDLE, inputs: EXAMPLE_INPUTS },
};

const SEE = 'Deprecated: kept for earlier clients (docs/api.md#older-unversioned-routes).';

/** `POST /pipeline/execute`, as the OpenAPI document describes it. */
export const LEGACY_EXECUTE_ROUTE: RouteSpec = {
  method: 'post',
  path: '/pipeline/execute',
  operationId: 'execute_pipeline_execute_post',
  tag: 'legacy',
  summary: 'Execute (older route)',
  description: `\`POST /v1/execute\` on the older request and result (spec §4.12). ${SEE}`,
  deprecated: true,
  body: LEGACY_RUN_BODY,
  responses: { 200: { description: 'The finished run, in the older envelope.', schema: LEGACY_RUN_RESULT } },
  problems: EXECUTE_ROUTE.problems,
};

/** `POST /pipeline/start`, as the OpenAPI document describes it. */
export const LEGACY_START_ROUTE: RouteSpec = {
  method: 'post',
  path: '/pipeline/start',
  operationId: 'start_pipeline_start_post',
  tag: 'legacy',
  summary: 'Start (older route)',
  description: `\`POST /v1/start\` on the older request, answered 200 in the older envelope (spec §4.12); needs queue mode as \`/v1/start\` does. ${SEE}`,
  deprecated: true,
  body: LEGACY_RUN_BODY,
  responses: { 200: { description: 'The run is enqueued.', schema: LEGACY_RUN_START } },
  problems: START_ROUTE.problems,
};

const MULTIPLICITY = { single: false, variable: true } as const;

/**
 * The `/v1` run request of an older one (spec §4.12 rules 2–4): the bundle becomes `mthds_contents`; a `pipe_code`
 * alone is refused, since this server keeps no library between requests for it to name a pipe of; a bundle without
 * `pipe_code` runs its `main_pipe` and one with it runs that pipe, both checked by the `/v1` path.
 * @param body - a checked older request
 * @throws PipeNotFoundError (422) for a `pipe_code` without `mthds_content` (rule 2)
 */
function toRunRequest(body: LegacyRunRequest): Record<string, unknown> {
  if (!body.mthds_content)
    throw new PipeNotFoundError(
      `Pipe '${body.pipe_code}' is not registered in the library: this server keeps no library between requests, so a pipe_code alone names no pipe. Send the bundle declaring it in mthds_content.`,
    );
  const multiplicity = body.output_multiplicity;
  return {
    mthds_contents: [body.mthds_content],
    pipe_code: body.pipe_code || null,
    ...(body.inputs === undefined ? {} : { inputs: body.inputs }),
    output_name: body.output_name ?? null,
    output_multiplicity: typeof multiplicity === 'string' ? MULTIPLICITY[multiplicity] : (multiplicity ?? null),
    dynamic_output_concept_ref: body.dynamic_output_concept_code ?? null,
  };
}

/** The older envelope around a `/v1` body: `status`, `message` and `error` first (spec §2.4). */
function inOlderEnvelope(body: object): object {
  return { status: 'success', message: null, error: null, ...body };
}

/**
 * Router serving `POST /pipeline/execute` and `POST /pipeline/start`.
 * @param options - the run routes' dependencies (`runRouter`'s)
 */
export function legacyRunRouter(options: RunRouteOptions): Router {
  const router = Router();
  const body = jsonBody(options, 'run', options.diagnostics);
  // a body that is not a JSON object goes on as it is, to be refused as the /v1 routes refuse it (422 InvalidJSON)
  const request = (value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? toRunRequest(parseRequest(LEGACY_RUN_REQUEST, value))
      : value;
  router.post(LEGACY_EXECUTE_ROUTE.path, body, (req, res) =>
    executeRun(req, res, options, request(req.body), {
      route: 'POST /pipeline/execute',
      status: 200,
      shape: inOlderEnvelope,
    }),
  );
  router.post(LEGACY_START_ROUTE.path, body, (req, res) =>
    startRun(req, res, options, request(req.body), {
      route: 'POST /pipeline/start',
      status: 200,
      shape: inOlderEnvelope,
    }),
  );
  return router;
}
