/**
 * The library routes as a diagnostics thread answers them: `POST /v1/resolve` (the crate of a closure) and
 * `POST /v1/codegen` (the `types` projection), closure routes each, whose selector also takes a stored method's
 * `method_id` (spec §4.6–4.7; docs/crate.md, docs/codegen.md#post-v1codegen, docs/methods.md#method_id).
 */
import { z } from 'zod';
import { CODEGEN_TARGETS } from '../../shared/codegen/index.js';
import { codegenOperation, resolveOperation } from '../offload/library-operations.js';
import { VALIDATION_MODE } from './closure-selector.js';
import { closureRoute } from './diagnostic-route.js';

/**
 * `POST /v1/resolve` (spec §4.6; docs/crate.md): `ResolveValidReport` `{is_valid: true, crate, message}` or
 * `CrateInvalidReport`; static (no dry-run sweep).
 */
export const resolveRoute = closureRoute(
  { validation_mode: VALIDATION_MODE },
  (body, closure) => resolveOperation({ ...closure, mode: body.validation_mode ?? 'compat' }),
  undefined,
  true,
);

/**
 * `POST /v1/codegen` (spec §4.7; docs/codegen.md#post-v1codegen): the `types` projection; `pipe_ref` is refused with
 * `types`.
 */
export const codegenRoute = closureRoute(
  { kind: z.enum(['types']), target: z.enum(CODEGEN_TARGETS), pipe_ref: z.string().max(512).nullish() },
  (body, closure) => codegenOperation({ ...closure, kind: body.kind, target: body.target }),
  (body, context) => {
    if (body.kind === 'types' && body.pipe_ref !== null && body.pipe_ref !== undefined) {
      context.addIssue({
        code: 'custom',
        message: "Value error, pipe_ref is not accepted for kind='types' (a concept-set-wide projection)",
      });
    }
  },
  true,
);
