/**
 * S4 PipeJudge: every input is material to judge, so an Image or a Document input (or a refinement, or a list of one)
 * is sent to the judgment model as a file; when the model the pipe's `model` (or the deck's default) resolves to says
 * in its spec what it reads, and that is not images (resp. `pdf` documents), the reference refuses the pipe at load
 * with `PipeJudgeInputCapabilityError`. A `~waterfall` is judged by the model it resolves to on this boot, its first
 * member whose backend is enabled (the one a run would call, as the reference's `served_judgment_model` does), and the
 * message
 * names that model; the other members are not judged, since they answer only when it cannot be served. A model whose
 * spec declares no `inputs`, a waterfall none of whose models can be served, a `Dynamic` input and a run without a deck
 * are not checked (the reference leaves those to the run). The 0.16 contract has no error type for
 * it: the item is the catch-all `unknown_validation_error` and its message starts with the reference's error name.
 * @see docs/language.md#pipejudge
 */
import type { Concept } from '../../library/concept.js';
import type { Library } from '../../library/library.js';
import { MESSAGES } from '../../messages.js';
import { type ModelInputs, parseModelReference } from '../../model-references.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOfType } from '../rule-item.js';

/** The file kinds a judged input may be, with the native it refines and the model input that reads it. */
const FILE_KINDS = [
  { kind: 'image', native: 'native.Image', reads: 'images' },
  { kind: 'document', native: 'native.Document', reads: 'pdf' },
] as const;

function fileKind(library: Library, concept: Concept): (typeof FILE_KINDS)[number] | undefined {
  if (concept.ref === 'native.Dynamic') return undefined;
  const ancestry = library.ancestry(concept).map((ancestor) => ancestor.ref);
  return FILE_KINDS.find((file) => ancestry.includes(file.native));
}

/** The catalog key of a PipeJudge `model` as written (`default` without one). */
function catalogKey(model: unknown): string {
  if (model === undefined) return 'default';
  const written =
    typeof model === 'string'
      ? model
      : typeof model === 'object' && model !== null && 'raw' in model
        ? String((model as { raw: unknown }).raw)
        : String((model as { model?: unknown }).model ?? '');
  const parsed = parseModelReference(written);
  return `${parsed.kind}:${parsed.name}`;
}

/** S4 PipeJudge inputs the judgment model reads (`unknown_validation_error`, `PipeJudgeInputCapabilityError`). */
export const judgeInputCapability: Rule = {
  id: 'S4-judge-input-capability',
  stage: 'S4',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'unknown_validation_error',
  see: 'docs/rules.md#s4-judge-input-capability',
  check: (context) => {
    const known = context.models?.judgment.inputs;
    if (known === undefined) return [];
    return pipesOfType(context, 'PipeJudge').flatMap((pipe) => {
      const key = catalogKey(pipe.blueprint.model);
      const model: ModelInputs | undefined = Object.hasOwn(known, key) ? known[key] : undefined;
      if (model === undefined) return [];
      return pipe.inputs.flatMap((input) => {
        const concept = context.library.findConcept(input.conceptRef, pipe.domain_code);
        const file = concept === undefined ? undefined : fileKind(context.library, concept);
        if (file === undefined || model.inputs.includes(file.reads)) return [];
        const message = MESSAGES.judge_input_capability({
          pipe: pipe.code,
          input: input.name,
          kind: file.kind,
          model: model.model,
          reads: model.inputs,
        });
        return [pipeItem(judgeInputCapability, pipe, message, { ...pipeField(pipe, `inputs.${input.name}`) })];
      });
    });
  },
};
