/**
 * S5b V-C1: a PipeSequence declares every input its steps need, minus the names earlier steps produce (`result` names,
 * the branch results of a PipeParallel with `add_each_output`, results inside a nested sequence) and minus the
 * `batch_as`
 * item of an inline-batch step; the `batch_over` list of such a step must be available too (V-C3). The item carries a
 * safe fix that declares the missing inputs (fix id `sync-controller-inputs`).
 * @see docs/data-flow.md#binding-inputs, docs/data-flow.md#batching, docs/rules.md#data-flow-s5b
 */
import type { FixOp } from '../../../errors/index.js';
import { pathRoot } from '../../library/binding-derivation.js';
import { MESSAGES } from '../../messages.js';
import { isBindingStep } from '../../parse/sequence-steps.js';
import { stripMultiplicity } from '../../references.js';
import type { Rule } from '../rule.js';
import { declaredRoots, pipeField, pipeItem, pipesOfType } from '../rule-item.js';
import { producedNames } from './produced-names.js';

/** S5b V-C1 sequence inputs (`missing_input_variable`). */
export const sequenceInputs: Rule = {
  id: 'V-C1',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'missing_input_variable',
  see: 'docs/rules.md#v-c1',
  check: (context) =>
    pipesOfType(context, 'PipeSequence').flatMap((pipe) => {
      const available = new Set(declaredRoots(pipe));
      const missing = new Map<string, string | undefined>();
      const need = (name: string, concept: string | undefined): void => {
        if (!available.has(name) && !missing.has(name)) missing.set(name, concept);
      };
      for (const step of pipe.blueprint.steps) {
        if (isBindingStep(step)) {
          need(pathRoot(step.from), undefined);
          available.add(step.result);
          continue;
        }
        const child = context.library.findPipe(step.pipe, pipe.domain_code);
        if (step.batch_over !== undefined) {
          const item = child?.inputs.find((input) => input.name === step.batch_as);
          const dotted = step.batch_over.includes('.');
          need(
            pathRoot(step.batch_over),
            item === undefined || dotted ? undefined : `${stripMultiplicity(item.raw)}[]`,
          );
        }
        for (const input of child?.inputs ?? []) {
          const root = input.name.split('.')[0] ?? input.name;
          if (root !== step.batch_as) need(root, input.raw);
        }
        if (step.result !== undefined) available.add(step.result);
        if (child) for (const name of producedNames(context.library, child)) available.add(name);
      }
      if (missing.size === 0) return [];
      const names = [...missing.keys()].sort();
      const ops: FixOp[] = names.flatMap((name) => {
        const concept = missing.get(name);
        return concept === undefined
          ? []
          : [{ kind: 'set_key' as const, table_path: ['pipe', pipe.code, 'inputs'], key: name, value: concept }];
      });
      return [
        pipeItem(sequenceInputs, pipe, MESSAGES.controller_inputs({ pipe: pipe.code, kind: 'steps', names }), {
          ...pipeField(pipe, 'inputs'),
          variable_names: names,
          suggested_fix: {
            fix_code: 'sync-controller-inputs',
            description: `Declare ${names.join(', ')} in the inputs of '${pipe.code}'.`,
            safety: 'safe',
            source: pipe.source,
            ops,
          },
        }),
      ];
    }),
};
