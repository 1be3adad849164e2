/**
 * The text tools as a diagnostics thread answers them: `POST /v1/lint` and `POST /v1/format`, one `.mthds` text each
 * (docs/api.md#post-v1lint, docs/formatting.md).
 */
import { z } from 'zod';
import { FORMAT_OPTIONS } from '../../shared/tooling/index.js';
import { formatOperation, lintOperation } from '../offload/text-operations.js';
import { parseRequest } from '../request-schema.js';
import { answer, type DiagnosticDefinition, perFileLimit } from './diagnostic-route.js';
import { mthdsContent } from './mthds-content.js';

const lintSchema = perFileLimit((maxMthdsFileKib) =>
  z.object({ content: mthdsContent(maxMthdsFileKib), source: z.string().max(1024).nullish() }),
);

/** `POST /v1/lint` (docs/api.md#post-v1lint): 200 `{diagnostics}` for any text. */
export const lintRoute: DiagnosticDefinition = {
  schema: lintSchema,
  handle: async (value, request) => {
    const body = parseRequest(lintSchema(request.limits.maxMthdsFileKib), value);
    return answer(lintOperation({ content: body.content }));
  },
};

const formatSchema = perFileLimit((maxMthdsFileKib) =>
  z.object({ content: mthdsContent(maxMthdsFileKib), options: FORMAT_OPTIONS.nullish() }),
);

/** `POST /v1/format` (docs/api.md#post-v1lint): 200 `{formatted, changed, diagnostics}`; a bad option is 422. */
export const formatRoute: DiagnosticDefinition = {
  schema: formatSchema,
  handle: async (value, request) => {
    const body = parseRequest(formatSchema(request.limits.maxMthdsFileKib), value);
    return answer(formatOperation({ content: body.content, options: body.options ?? null }));
  },
};
