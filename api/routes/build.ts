/**
 * `POST /v1/build/inputs`, `/v1/build/output` and `/v1/build/runner` (spec §4.8–4.10; API-CONTRACT.md §3.10–3.12):
 * per-pipe projections of a closure. Inputs and output are static reads of the pipe's declared I/O; the runner alone
 * runs the dry-run sweep (scoped to the requested pipe, the whole closure when `pipe_ref` is omitted) before emitting
 * its script and the `python-structures` projection it imports. Verdicts are 200; no verdict is a problem document.
 */
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { MethodFetcher } from '../../shared/methods/index.js';
import { closureRequestSchema, loadClosure } from '../closure-selector.js';
import { jsonBody } from '../middleware/json-body.js';
import { clientSignal } from '../offload/client-signal.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import { parseBody } from '../request-schema.js';
import { sendEncodedJson } from '../send-json.js';

const PIPE_REF = z.string().min(1).max(256).nullish();

function buildRequests(maxMthdsFileKib: number) {
  return {
    inputs: closureRequestSchema({ pipe_ref: PIPE_REF, format: z.enum(['json', 'toml']).default('json'), explicit: z.boolean().default(false) }, maxMthdsFileKib),
    output: closureRequestSchema({ pipe_ref: PIPE_REF, format: z.enum(['schema', 'json', 'python']).default('schema') }, maxMthdsFileKib),
    runner: closureRequestSchema({ pipe_ref: PIPE_REF, allow_signatures: z.boolean().default(false) }, maxMthdsFileKib),
  };
}

/** What the build routes need. */
export interface BuildRouterOptions {
  maxBodyBytes: number;
  /** `MAX_JSON_DEPTH`, the deepest JSON body accepted. */
  maxJsonDepth: number;
  /** `MAX_MTHDS_FILE_KIB`, the ceiling of each `files[].content`. */
  maxMthdsFileKib: number;
  methodFetcher: MethodFetcher;
  /** Where the projections and the runner's dry-run sweep are computed (docs/isolation.md "Diagnostics pool"). */
  diagnostics: DiagnosticsPool;
}

/**
 * Router serving the three build routes.
 * @param options - body limit, file limit, method fetcher, diagnostics pool
 * @throws (through the problem handler) ServerBusyError 503 and ComputeBudgetExceededError 422 from the pool
 */
export function buildRouter(options: BuildRouterOptions): Router {
  const requests = buildRequests(options.maxMthdsFileKib);
  const router = Router();
  const body = (req: Request) => req.body as unknown;

  router.post('/v1/build/inputs', jsonBody(options, 'typed'), async (req, res) => {
    const request = parseBody(requests.inputs, body(req));
    const closure = await loadClosure(request, options.methodFetcher);
    const input = { ...closure, pipeRef: request.pipe_ref ?? null, format: request.format, explicit: request.explicit };
    sendEncodedJson(res, 200, await options.diagnostics.run('buildInputs', input, clientSignal(res)));
  });

  router.post('/v1/build/output', jsonBody(options, 'typed'), async (req, res) => {
    const request = parseBody(requests.output, body(req));
    const closure = await loadClosure(request, options.methodFetcher);
    sendEncodedJson(res, 200, await options.diagnostics.run('buildOutput', { ...closure, pipeRef: request.pipe_ref ?? null, format: request.format }, clientSignal(res)));
  });

  router.post('/v1/build/runner', jsonBody(options, 'typed'), async (req, res) => {
    const request = parseBody(requests.runner, body(req));
    const closure = await loadClosure(request, options.methodFetcher);
    const input = { ...closure, pipeRef: request.pipe_ref ?? null, allowSignatures: request.allow_signatures };
    sendEncodedJson(res, 200, await options.diagnostics.run('buildRunner', input, clientSignal(res)));
  });
  return router;
}
