/**
 * `POST /v1/validate` as a diagnostics thread answers it: its request schema (inline `mthds_contents`, a `method_ref`
 * or a stored method's `method_id`, exactly one) and its handler (spec §4.5; docs/api.md#post-v1validate,
 * docs/methods.md#method_id).
 */
import { z } from 'zod';
import { validateOperation } from '../offload/validate-operation.js';
import { checkOrchestrationMode } from '../orchestration.js';
import { parseRequest } from '../request-schema.js';
import { VALIDATION_MODE } from './closure-selector.js';
import { answer, type DiagnosticDefinition, perFileLimit } from './diagnostic-route.js';
import { METHOD_ID } from './method-id.js';
import { mthdsContent } from './mthds-content.js';

const validateSchema = perFileLimit((maxMthdsFileKib) =>
  z
    .object({
      mthds_contents: z.array(mthdsContent(maxMthdsFileKib)).min(1).max(16).nullish(),
      mthds_sources: z.array(z.string()).nullish(),
      method_ref: z.string().min(1).max(512).nullish(),
      method_id: METHOD_ID.nullish(),
      views: z.array(z.string()).nullish(),
      render: z.array(z.string()).nullish(),
      orchestration_mode: z.string().nullish(),
      allow_signatures: z.boolean().nullish(),
      validation_mode: VALIDATION_MODE,
    })
    .superRefine((body, context) => {
      const hasContents = body.mthds_contents !== null && body.mthds_contents !== undefined;
      const hasRef = body.method_ref !== null && body.method_ref !== undefined;
      const hasId = body.method_id !== null && body.method_id !== undefined;
      if ([hasContents, hasRef, hasId].filter(Boolean).length !== 1) {
        context.addIssue({
          code: 'custom',
          message: 'Value error, provide exactly one of `mthds_contents`, `method_ref` or `method_id`',
        });
      }
      if ((hasRef || hasId) && body.mthds_sources) {
        context.addIssue({
          code: 'custom',
          path: ['mthds_sources'],
          message: `mthds_sources accompanies inline mthds_contents; ${hasRef ? "a method_ref's sources are the package's own file names" : "a stored method's sources are its own file names"}`,
        });
      }
      if (hasContents && body.mthds_sources && body.mthds_sources.length !== body.mthds_contents!.length) {
        context.addIssue({
          code: 'custom',
          path: ['mthds_sources'],
          message: `mthds_sources has ${body.mthds_sources.length} entries but mthds_contents has ${body.mthds_contents!.length}; send one source name per content, in the same order`,
        });
      }
    }),
);

/**
 * `POST /v1/validate` (spec §4.5): static validation and the dry-run sweep. Unknown members are accepted and ignored;
 * `render: ["markdown"]` adds `rendered_markdown` to either arm (docs/api.md#rendered-markdown); a forbidden or unregistered `orchestration_mode` is refused before the verdict; a
 * `method_ref` package's manifest `main_pipe` is the default pipe (docs/methods.md#shaping-and-gates); a stored
 * method's bundles are validated as inline ones are (docs/methods.md#method_id).
 */
export const validateRoute: DiagnosticDefinition = {
  schema: validateSchema,
  handle: async (value, request) => {
    const body = parseRequest(validateSchema(request.limits.maxMthdsFileKib), value);
    checkOrchestrationMode(body.orchestration_mode, request.modes);
    const options = {
      allowSignatures: body.allow_signatures ?? false,
      views: body.views ?? [],
      render: body.render ?? [],
      mode: body.validation_mode ?? 'compat',
      ...(request.models ? { models: request.models } : {}),
    } as const;
    if (body.method_ref) {
      if (!request.fetched) return { fetch: { methodRef: body.method_ref, purpose: 'run' } };
      return answer(
        validateOperation({
          sources: request.fetched.sources,
          ...options,
          defaultPipe: request.fetched.manifestMainPipe,
          bundleFiles: request.fetched.bundleFiles ?? [],
          ...(request.fetched.exports ? { exports: request.fetched.exports } : {}),
          ...(request.fetched.libraryFiles ? { libraryFiles: request.fetched.libraryFiles } : {}),
        }),
      );
    }
    if (body.method_id) {
      if (!request.fetched) return { fetch: { methodId: body.method_id, purpose: 'run' } };
      const { sources } = request.fetched;
      return answer(validateOperation({ sources, ...options, defaultPipe: null, bundleFiles: null }));
    }
    const sources = (body.mthds_contents ?? []).map((content, index) => ({
      content,
      source: body.mthds_sources?.[index] ?? null,
    }));
    return answer(validateOperation({ sources, ...options, defaultPipe: null, bundleFiles: null }));
  },
};
