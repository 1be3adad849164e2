/**
 * The request schemas of the agent routes `POST /v1/build/concept` (`{spec}`) and `POST /v1/build/pipe-spec`
 * (`{pipe_type, spec}`), the reference's 0.16 `BuildConceptRequest` and `BuildPipeSpecRequest`: `spec` is a JSON object
 * of at most {@link MAX_SPEC_KIB} KiB, `pipe_type` 1–128 characters.
 *
 * @see docs/codegen.md#definition-specs, docs/limits.md (`MAX_AGENT_SPEC_KIB`)
 */
import { z } from 'zod';

/** The ceiling of a spec's JSON, in KiB (the reference's `MAX_AGENT_SPEC_KIB` default). */
export const MAX_SPEC_KIB = 256;

const SPEC = z.record(z.string(), z.unknown()).superRefine((spec, context) => {
  if (Buffer.byteLength(JSON.stringify(spec), 'utf8') > MAX_SPEC_KIB * 1024)
    context.addIssue({ code: 'custom', message: `spec exceeds ${MAX_SPEC_KIB} KiB limit` });
});

/** `POST /v1/build/concept`. */
export const BUILD_CONCEPT_REQUEST = z.object({ spec: SPEC });

/** `POST /v1/build/pipe-spec`. */
export const BUILD_PIPE_SPEC_REQUEST = z.object({ pipe_type: z.string().min(1).max(128), spec: SPEC });
