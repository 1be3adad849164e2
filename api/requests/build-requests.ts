/**
 * The build routes as a diagnostics thread answers them: `POST /v1/build/{inputs,output,runner}` (closure routes that
 * also take the legacy envelope `{mthds_contents, pipe_code}`) and the agent routes
 * `POST /v1/build/{concept,pipe-spec}`
 * (spec §4.8–4.10; docs/codegen.md#post-v1buildinputs, docs/codegen.md#definition-specs).
 */
import { z } from 'zod';
import { buildInputsOperation, buildOutputOperation, buildRunnerOperation } from '../offload/build-operations.js';
import { buildConceptOperation, buildPipeSpecOperation } from '../offload/definition-operations.js';
import {
  legacyBuildInputsOperation,
  legacyBuildOutputOperation,
  legacyBuildRunnerOperation,
} from '../offload/legacy-build-operations.js';
import { parseRequest } from '../request-schema.js';
import { BUILD_CONCEPT_REQUEST, BUILD_PIPE_SPEC_REQUEST } from './definition-requests.js';
import { answer, closureRoute, type DiagnosticDefinition, withLegacyEnvelope } from './diagnostic-route.js';
import { legacyBuildOutputRequest, legacyBuildRequest } from './legacy-build-envelope.js';

const PIPE_REF = z.string().min(1).max(256).nullish();

/** `POST /v1/build/inputs` (spec §4.8; docs/codegen.md#post-v1buildinputs), and its legacy envelope. */
export const buildInputsRoute = withLegacyEnvelope(
  closureRoute(
    { pipe_ref: PIPE_REF, format: z.enum(['json', 'toml']).default('json'), explicit: z.boolean().default(false) },
    (body, closure) =>
      buildInputsOperation({
        ...closure,
        pipeRef: body.pipe_ref ?? null,
        format: body.format,
        explicit: body.explicit,
      }),
  ),
  (value, maxKib) => legacyBuildInputsOperation(legacyBuildRequest(value, maxKib)),
);

/** `POST /v1/build/output` (spec §4.9; docs/codegen.md#post-v1buildoutput), and its legacy envelope. */
export const buildOutputRoute = withLegacyEnvelope(
  closureRoute(
    { pipe_ref: PIPE_REF, format: z.enum(['schema', 'json', 'python']).default('schema') },
    (body, closure) => buildOutputOperation({ ...closure, pipeRef: body.pipe_ref ?? null, format: body.format }),
  ),
  (value, maxKib) => legacyBuildOutputOperation(legacyBuildOutputRequest(value, maxKib)),
);

/**
 * `POST /v1/build/runner` (spec §4.10; docs/codegen.md#post-v1buildrunner): the dry-run sweep scoped to the pipe, then
 * its script;
 * and its legacy envelope.
 */
export const buildRunnerRoute = withLegacyEnvelope(
  closureRoute({ pipe_ref: PIPE_REF, allow_signatures: z.boolean().default(false) }, (body, closure) =>
    buildRunnerOperation({ ...closure, pipeRef: body.pipe_ref ?? null, allowSignatures: body.allow_signatures }),
  ),
  (value, maxKib) => legacyBuildRunnerOperation(legacyBuildRequest(value, maxKib)),
);

/** `POST /v1/build/concept` (docs/codegen.md#definition-specs): a concept spec as TOML. */
export const buildConceptRoute: DiagnosticDefinition = {
  schema: () => BUILD_CONCEPT_REQUEST,
  handle: async (value) => answer(buildConceptOperation(parseRequest(BUILD_CONCEPT_REQUEST, value).spec)),
};

/** `POST /v1/build/pipe-spec` (docs/codegen.md#definition-specs): a pipe spec as TOML. */
export const buildPipeSpecRoute: DiagnosticDefinition = {
  schema: () => BUILD_PIPE_SPEC_REQUEST,
  handle: async (value) => {
    const body = parseRequest(BUILD_PIPE_SPEC_REQUEST, value);
    return answer(buildPipeSpecOperation(body.pipe_type, body.spec));
  },
};
