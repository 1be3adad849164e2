/**
 * The `bundle_blueprint` member of a ValidReport (docs/api.md#valid-report): the bundle as written, with `source`, and
 * absent header members as null. A contract-only pipe is written without `type`, as the reference's
 * `PipeSignatureBlueprint` (which admits no `type`) and the `.mthds` text spell it (docs/pipes.md#pipesignature).
 * Binding
 * steps of a PipeSequence (docs/data-flow.md#binding-steps, newer than the pinned 0.16 contract, whose closed
 * `SubPipeBlueprint`
 * requires `pipe` and admits no `from`) are left out of its `steps`; `mthds_contents` still carries them as written.
 * A PipeParallel's legacy `combined_output` (accepted in compat mode; the closed 0.16 PipeParallelBlueprint has no such
 * member, docs/pipes.md) is left out too. A PipeJudge (docs/language.md#pipejudge, newer than 0.16, whose closed pipe
 * union has no `PipeJudgeBlueprint`) is written as its contract — `description`, `inputs`, `output`, the shape of
 * `PipeSignatureBlueprint` — so the pipe stays listed without a member the 0.16 schemas forbid.
 */
import { type LoadedBundle, type PipeBlueprint, pipeSteps } from '../mthds/index.js';

function pipeForWire(pipe: PipeBlueprint): Record<string, unknown> {
  if (pipe.type === 'PipeSequence') return { ...pipe, steps: pipeSteps(pipe.steps) };
  if (pipe.type === 'PipeParallel') {
    const { combined_output: _retired, ...parallel } = pipe;
    return parallel;
  }
  if (pipe.type === 'PipeJudge') {
    const { description, inputs, output } = pipe;
    return inputs === undefined ? { description, output } : { description, inputs, output };
  }
  if (pipe.type !== 'PipeSignature') return pipe;
  const { type: _signature, ...contract } = pipe;
  return contract;
}

/**
 * Shape a bundle for the wire.
 * @param bundle - a loaded bundle
 * @returns `{source, domain, description, system_prompt, main_pipe, concept, pipe}`; signatures without `type`,
 *   sequences without their binding steps, judges as their contract
 */
export function bundleBlueprintForWire(bundle: Pick<LoadedBundle, 'blueprint' | 'source'>): Record<string, unknown> {
  const { blueprint } = bundle;
  return {
    source: bundle.source,
    domain: blueprint.domain,
    description: blueprint.description ?? null,
    system_prompt: blueprint.system_prompt ?? null,
    main_pipe: blueprint.main_pipe ?? null,
    concept: blueprint.concept,
    pipe: Object.fromEntries(Object.entries(blueprint.pipe).map(([code, pipe]) => [code, pipeForWire(pipe)])),
  };
}
