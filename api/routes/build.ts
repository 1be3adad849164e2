/**
 * `POST /v1/build/inputs`, `/v1/build/output` and `/v1/build/runner` (spec §4.8–4.10; API-CONTRACT.md §3.10–3.12):
 * per-pipe projections of a closure. Inputs and output are static reads of the pipe's declared I/O; the runner alone
 * runs the dry-run sweep (scoped to the requested pipe, the whole closure when `pipe_ref` is omitted) before emitting
 * its script and the `python-structures` projection it imports. Verdicts are 200; no verdict is a problem document.
 */
import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  buildTypeSet,
  crateInvalidReport,
  generateTypes,
  inputsTemplate,
  inputsTemplateToml,
  outputRepresentation,
  runnerScript,
  selectPipe,
  type SelectedPipe,
} from '../../shared/codegen/index.js';
import { ValidationError } from '../../shared/errors/index.js';
import type { MethodFetcher } from '../../shared/methods/index.js';
import { dryRunSweep, type SweepDeps } from '../../shared/runtime/index.js';
import { closureRequestSchema, loadClosureLibrary } from '../closure-selector.js';
import { jsonBody } from '../middleware/json-body.js';
import { parseBody } from '../request-schema.js';
import { sendJson } from '../send-json.js';

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
  /** Mock backends of the runner's dry-run sweep. */
  sweep: SweepDeps;
}

function selection(selected: SelectedPipe): { pipe_ref: string; requested_pipe_ref?: string } {
  return selected.requestedPipeRef === undefined ? { pipe_ref: selected.pipe.ref } : { pipe_ref: selected.pipe.ref, requested_pipe_ref: selected.requestedPipeRef };
}

/**
 * Router serving the three build routes.
 * @param options - body limit, file limit, method fetcher, sweep backends
 */
export function buildRouter(options: BuildRouterOptions): Router {
  const requests = buildRequests(options.maxMthdsFileKib);
  const router = Router();
  const body = (req: Request) => req.body as unknown;

  router.post('/v1/build/inputs', jsonBody(options, 'typed'), async (req, res) => {
    const request = parseBody(requests.inputs, body(req));
    const loaded = await loadClosureLibrary(request, options.methodFetcher, 'compat');
    if ('is_valid' in loaded) return sendJson(res, 200, loaded);
    const selected = selectPipe(loaded.library, request.pipe_ref, loaded.closure.manifestMainPipe);
    const template = inputsTemplate(loaded.library, buildTypeSet(loaded.library), selected.pipe, request.explicit);
    const rendered = request.format === 'json' ? { inputs: template } : { inputs_toml: inputsTemplateToml(selected.pipe, template) };
    const message = selected.pipe.inputs.length === 0 ? 'This pipe declares no inputs — the template is empty.' : 'Inputs template generated successfully';
    sendJson(res, 200, { is_valid: true, ...selection(selected), format: request.format, explicit: request.explicit, ...rendered, message });
  });

  router.post('/v1/build/output', jsonBody(options, 'typed'), async (req, res) => {
    const request = parseBody(requests.output, body(req));
    const loaded = await loadClosureLibrary(request, options.methodFetcher, 'compat');
    if ('is_valid' in loaded) return sendJson(res, 200, loaded);
    const selected = selectPipe(loaded.library, request.pipe_ref, loaded.closure.manifestMainPipe);
    const representation = outputRepresentation(loaded.library, buildTypeSet(loaded.library), selected.pipe, request.format);
    const rendered = typeof representation === 'string' ? { output_python: representation } : { output: representation };
    sendJson(res, 200, { is_valid: true, ...selection(selected), format: request.format, ...rendered, message: 'Output representation generated successfully' });
  });

  router.post('/v1/build/runner', jsonBody(options, 'typed'), async (req, res) => {
    const request = parseBody(requests.runner, body(req));
    const loaded = await loadClosureLibrary(request, options.methodFetcher, 'compat');
    if ('is_valid' in loaded) return sendJson(res, 200, loaded);
    const { library } = loaded;
    const requested = request.pipe_ref === null || request.pipe_ref === undefined ? undefined : selectPipe(library, request.pipe_ref, null);
    const swept = await dryRunSweep(library, options.sweep.deps, options.sweep.dryRun, { allowSignatures: request.allow_signatures, pipeRefs: requested && new Set([requested.pipe.ref]) });
    if (swept.errors.length > 0) return sendJson(res, 200, crateInvalidReport(swept.errors, `Dry run error(s): ${swept.errors.map((item) => item.message).join(' | ')}`));
    const selected = requested ?? selectPipe(library, null, loaded.closure.manifestMainPipe);
    if (swept.validatedPipes.some((validated) => validated.pipe_ref === selected.pipe.ref && validated.status === 'SKIPPED')) {
      throw new ValidationError(
        `Cannot generate runner code for pipe '${selected.pipe.ref}': it calls a pipe of another package that is absent from the request; submit that package's bundles in \`files\` too.`,
      );
    }
    const types = buildTypeSet(library);
    const pythonCode = runnerScript(library, types, selected.pipe);
    const { artifacts, lock, lock_filename } = generateTypes(library, 'python-structures', types);
    sendJson(res, 200, { is_valid: true, ...selection(selected), python_code: pythonCode, structures: { directory: 'structures', artifacts, lock, lock_filename }, message: 'Runner code generated successfully' });
  });
  return router;
}
