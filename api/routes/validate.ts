/**
 * `POST /v1/validate` (spec §4.5): a diagnostic route. Any verdict, valid or invalid, is 200; non-2xx only when no
 * verdict could be produced.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { MethodFetcher } from '../../shared/methods/index.js';
import { VALIDATION_MODE } from '../closure-selector.js';
import { mthdsContent } from '../mthds-content.js';
import { jsonBody } from '../middleware/json-body.js';
import { clientSignal } from '../offload/client-signal.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import type { Orchestration } from '../orchestration.js';
import { parseBody } from '../request-schema.js';
import { sendEncodedJson } from '../send-json.js';

/**
 * The request schema. Unknown members (e.g. `render`) are accepted and ignored.
 * @param maxMthdsFileKib - `MAX_MTHDS_FILE_KIB`, the ceiling of each content
 */
function validateRequest(maxMthdsFileKib: number) {
  return z
    .object({
      mthds_contents: z.array(mthdsContent(maxMthdsFileKib)).min(1).max(16).nullish(),
      mthds_sources: z.array(z.string()).nullish(),
      method_ref: z.string().min(1).max(512).nullish(),
      views: z.array(z.string()).nullish(),
      orchestration_mode: z.string().nullish(),
      allow_signatures: z.boolean().nullish(),
      validation_mode: VALIDATION_MODE,
    })
    .superRefine((body, context) => {
      const hasContents = body.mthds_contents !== null && body.mthds_contents !== undefined;
      const hasRef = body.method_ref !== null && body.method_ref !== undefined;
      if (hasContents === hasRef) {
        context.addIssue({ code: 'custom', message: 'Value error, provide exactly one of `mthds_contents` or `method_ref`' });
      }
      if (hasRef && body.mthds_sources) {
        context.addIssue({
          code: 'custom',
          path: ['mthds_sources'],
          message: "mthds_sources accompanies inline mthds_contents; a method_ref's sources are the package's own file names",
        });
      }
      if (hasContents && body.mthds_sources && body.mthds_sources.length !== body.mthds_contents!.length) {
        context.addIssue({
          code: 'custom',
          path: ['mthds_sources'],
          message: `mthds_sources has ${body.mthds_sources.length} entries but mthds_contents has ${body.mthds_contents!.length}; send one source name per content, in the same order`,
        });
      }
    });
}

/**
 * Router serving `POST /v1/validate`. The verdict (static validation and the dry-run sweep) is computed in the
 * diagnostics pool (docs/isolation.md "Diagnostics pool").
 * @param options - body limit in bytes, `MAX_MTHDS_FILE_KIB`, the orchestration (a forbidden or unregistered mode is refused), the
 *   diagnostics pool, and the method fetcher (`method_ref`)
 * @throws (through the problem handler) ServerBusyError 503 and ComputeBudgetExceededError 422 from the pool
 */
export function validateRouter(options: { maxBodyBytes: number; maxJsonDepth: number; maxMthdsFileKib: number; orchestration: Orchestration; diagnostics: DiagnosticsPool; methodFetcher: MethodFetcher }): Router {
  const request = validateRequest(options.maxMthdsFileKib);
  const router = Router();
  router.post('/v1/validate', jsonBody(options, 'typed'), async (req, res) => {
    const body = parseBody(request, req.body);
    options.orchestration.select(body.orchestration_mode);
    const reportOptions = { allowSignatures: body.allow_signatures ?? false, views: body.views ?? [], mode: body.validation_mode ?? 'compat' } as const;
    const signal = clientSignal(res);
    if (body.method_ref) {
      const fetched = await options.methodFetcher.fetch(body.method_ref, 'run');
      // The manifest's main_pipe is the default pipe of a method_ref request (API-CONTRACT.md §10.5).
      sendEncodedJson(res, 200, await options.diagnostics.run('validate', { sources: fetched.sources, ...reportOptions, defaultPipe: fetched.mainPipe }, signal));
      return;
    }
    const contents = body.mthds_contents ?? [];
    const sources = contents.map((content, index) => ({ content, source: body.mthds_sources?.[index] ?? null }));
    sendEncodedJson(res, 200, await options.diagnostics.run('validate', { sources, ...reportOptions, defaultPipe: null }, signal));
  });
  return router;
}
