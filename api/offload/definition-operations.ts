/**
 * The agent routes `POST /v1/build/concept` and `POST /v1/build/pipe-spec` (the reference's 0.16 routes; docs/api.md
 * §3.14): a concept or pipe spec written as `.mthds` TOML, answered as `BuildConceptResponse` /
 * `BuildPipeSpecResponse`.
 *
 * @see docs/codegen.md#definition-specs
 */
import { conceptDefinition, pipeDefinition } from '../../shared/tooling/index.js';
import { type EncodedJson, encodeJson } from './encode-json.js';

/**
 * `{success: true, concept_code, toml}` for a concept spec.
 * @param spec - the concept's code and members
 * @throws ValidationError (422) when the spec names no PascalCase code or breaks the concept schema
 */
export function buildConceptOperation(spec: Record<string, unknown>): EncodedJson {
  const definition = conceptDefinition(spec);
  return encodeJson({ success: true, concept_code: definition.conceptCode, toml: definition.toml });
}

/**
 * `{success: true, pipe_code, pipe_type, toml}` for a pipe spec.
 * @param pipeType - the pipe type (`PipeLLM`, …, or `PipeSignature`)
 * @param spec - the pipe's code and members
 * @throws ValidationError (422) for an unknown pipe type, a missing or non-snake_case code, or a member that breaks
 *   the type's schema
 */
export function buildPipeSpecOperation(pipeType: string, spec: Record<string, unknown>): EncodedJson {
  const definition = pipeDefinition(pipeType, spec);
  return encodeJson({
    success: true,
    pipe_code: definition.pipeCode,
    pipe_type: definition.pipeType,
    toml: definition.toml,
  });
}
