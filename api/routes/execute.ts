/**
 * `POST /v1/execute` (spec §4.3): a blocking run. In the `direct` orchestration mode the run executes in this
 * process; the response is the run result once it completes.
 */
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { executeBundleRun, type InferencePort, type IdSource } from '../../shared/runtime/index.js';
import { jsonBody } from '../middleware/json-body.js';
import { resolveOrchestrationMode, type OrchestrationSettings } from '../orchestration.js';
import { parseRunRequest, runSources } from '../run-request.js';
import { sendJson } from '../send-json.js';

/** What the route needs. */
export interface ExecuteRouteOptions {
  maxBodyBytes: number;
  orchestration: OrchestrationSettings;
  inference: InferencePort;
  ids: IdSource;
  now(): number;
}

/**
 * Router serving `POST /v1/execute`.
 * @param options - body limit, orchestration settings and the runtime's ports
 */
export function executeRouter(options: ExecuteRouteOptions): Router {
  const router = Router();
  router.post('/v1/execute', jsonBody(options.maxBodyBytes, 'run'), async (req, res) => {
    const body = parseRunRequest(req.body);
    const sources = runSources(body);
    resolveOrchestrationMode(body.orchestration_mode, options.orchestration);
    const abort = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort(new Error('client closed the connection'));
    });
    const result = await executeBundleRun(
      {
        sources,
        pipeCode: body.pipe_code ?? null,
        inputs: body.inputs,
        outputName: body.output_name ?? null,
        outputMultiplicity: body.output_multiplicity ?? null,
        dynamicOutputConceptRef: body.dynamic_output_concept_ref ?? null,
        pipelineRunId: randomUUID(),
      },
      { inference: options.inference, ids: options.ids, now: options.now, signal: abort.signal },
    );
    sendJson(res, 200, result);
  });
  return router;
}
