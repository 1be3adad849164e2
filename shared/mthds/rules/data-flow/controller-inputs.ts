/**
 * S5b V-C2: a PipeParallel declares the inputs of each branch; a PipeCondition the inputs of every outcome pipe and of
 * the default-outcome pipe; a PipeBatch, with its list input replaced by the item name, the inputs of its branch pipe
 * (compared by root name; pipes that do not resolve are left to the S5 rules).
 * @see docs/data-flow.md#binding-inputs, docs/rules.md#v-c2
 */
import type { Pipe } from '../../library/concept.js';
import type { MthdsLibrary } from '../../library/mthds-library.js';
import { MESSAGES } from '../../messages.js';
import { SPECIAL_OUTCOMES } from '../../references.js';
import type { Rule } from '../rule.js';
import { declaredRoots, pipeField, pipeItem, pipesOf } from '../rule-item.js';

type Kind = 'branches' | 'outcome pipes' | 'branch pipe';

function children(
  library: MthdsLibrary,
  pipe: Pipe,
): { kind: Kind; pipes: Pipe[]; available: string[]; exempt: string[] } | undefined {
  const blueprint = pipe.blueprint;
  const find = (ref: string): Pipe[] => {
    const child = library.findPipe(ref, pipe.domain_code);
    return child ? [child] : [];
  };
  switch (blueprint.type) {
    case 'PipeParallel':
      return {
        kind: 'branches',
        pipes: blueprint.branches.flatMap((branch) => find(branch.pipe)),
        available: declaredRoots(pipe),
        exempt: blueprint.branches.flatMap((branch) => (branch.batch_as === undefined ? [] : [branch.batch_as])),
      };
    case 'PipeCondition':
      return {
        kind: 'outcome pipes',
        pipes: [...Object.values(blueprint.outcomes), blueprint.default_outcome]
          .filter((ref) => !SPECIAL_OUTCOMES.has(ref))
          .flatMap(find),
        available: declaredRoots(pipe),
        exempt: [],
      };
    case 'PipeBatch':
      return {
        kind: 'branch pipe',
        pipes: find(blueprint.branch_pipe_code),
        available: [
          ...declaredRoots(pipe).filter((name) => name !== blueprint.input_list_name),
          blueprint.input_item_name,
        ],
        exempt: [],
      };
    default:
      return undefined;
  }
}

/** S5b V-C2 parallel, condition and batch inputs (`missing_input_variable`). */
export const controllerInputs: Rule = {
  id: 'V-C2',
  stage: 'S5b',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'missing_input_variable',
  see: 'docs/rules.md#v-c2',
  check: (context) =>
    pipesOf(context).flatMap((pipe) => {
      const found = children(context.library, pipe);
      if (!found) return [];
      const names = [...new Set(found.pipes.flatMap(declaredRoots))]
        .filter((name) => !found.available.includes(name) && !found.exempt.includes(name))
        .sort();
      if (names.length === 0) return [];
      return [
        pipeItem(controllerInputs, pipe, MESSAGES.controller_inputs({ pipe: pipe.code, kind: found.kind, names }), {
          ...pipeField(pipe, 'inputs'),
          variable_names: names,
        }),
      ];
    }),
};
