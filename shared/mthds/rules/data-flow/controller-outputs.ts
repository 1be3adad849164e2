/**
 * S5b V-O2: a PipeBatch's output concept accepts what its branch pipe produces, and a PipeCondition's output concept
 * accepts what each of its outcome pipes produces (the same concept or a refinement; `Anything` and `Dynamic` on either
 * side are not checked; `fail` / `continue` produce nothing).
 * @see docs/concepts.md#refinement-and-compatibility, docs/pipes.md#pipecondition, docs/pipes.md#pipebatch,
 * docs/rules.md#v-o2
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { Pipe } from '../../library/concept.js';
import { MESSAGES } from '../../messages.js';
import { SPECIAL_OUTCOMES } from '../../references.js';
import type { Rule, RuleContext } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';

const UNCHECKED = new Set(['native.Anything', 'native.Dynamic']);

function childRefs(pipe: Pipe): { role: 'branch pipe' | 'outcome pipe'; refs: string[] } | undefined {
  const blueprint = pipe.blueprint;
  if (blueprint.type === 'PipeBatch') return { role: 'branch pipe', refs: [blueprint.branch_pipe_code] };
  if (blueprint.type === 'PipeCondition')
    return {
      role: 'outcome pipe',
      refs: [...new Set([...Object.values(blueprint.outcomes), blueprint.default_outcome])].filter(
        (ref) => !SPECIAL_OUTCOMES.has(ref),
      ),
    };
  return undefined;
}

function check(context: RuleContext, pipe: Pipe): ValidationErrorItem[] {
  const found = childRefs(pipe);
  const expected = context.library.concepts.get(pipe.output.conceptRef);
  if (!found || !expected || UNCHECKED.has(expected.ref)) return [];
  return found.refs.flatMap((ref) => {
    const child = context.library.findPipe(ref, pipe.domain_code);
    const produced = child && context.library.concepts.get(child.output.conceptRef);
    if (!child || !produced || UNCHECKED.has(produced.ref) || context.library.isCompatible(produced, expected))
      return [];
    const message = MESSAGES.controller_output({
      pipe: pipe.code,
      output: pipe.output.raw,
      child: child.code,
      produced: child.output.raw,
      role: found.role,
    });
    return [pipeItem(controllerOutputs, pipe, message, pipeField(pipe, 'output'))];
  });
}

/** S5b V-O2 batch and condition outputs (`inadequate_output_concept`). */
export const controllerOutputs: Rule = {
  id: 'V-O2',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'inadequate_output_concept',
  see: 'docs/rules.md#v-o2',
  check: (context) => pipesOf(context).flatMap((pipe) => check(context, pipe)),
};
