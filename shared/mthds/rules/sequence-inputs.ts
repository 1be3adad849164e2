/**
 * S5b V-C1: a sequence declares every input its steps need, minus the names produced by earlier steps (`result`
 * names, the branch results of a parallel with `add_each_output`, the results inside a nested sequence) and minus
 * `batch_as` for inline-batch steps (the reference's `missing_input_variable`; fix id `sync-controller-inputs`).
 * LANGUAGE.md §4.2, §6 S5b.
 */
import type { FixOp, ValidationErrorItem } from '../../errors/index.js';
import type { Pipe } from '../concept.js';
import type { Library } from '../library.js';
import { aboutPipe, pipesOf, type Rule } from './rule.js';

function producedNames(library: Library, pipe: Pipe, seen = new Set<string>()): string[] {
  if (seen.has(pipe.ref)) return [];
  seen.add(pipe.ref);
  const blueprint = pipe.blueprint;
  if (blueprint.type === 'PipeParallel' && blueprint.add_each_output) return blueprint.branches.flatMap((branch) => (branch.result ? [branch.result] : []));
  if (blueprint.type !== 'PipeSequence') return [];
  return blueprint.steps.flatMap((step) => {
    const child = library.findPipe(step.pipe, pipe.domain_code);
    return [...(step.result ? [step.result] : []), ...(child ? producedNames(library, child, seen) : [])];
  });
}

export const sequenceInputs: Rule = {
  id: 'S5b-sequence-inputs',
  stage: 'S5b',
  severity: 'error',
  see: 'LANGUAGE.md §4.2, §6 S5b V-C1',
  check: (context) => {
    const { library } = context;
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      if (pipe.blueprint.type !== 'PipeSequence') continue;
      const available = new Set(pipe.inputs.map((input) => input.name.split('.')[0]!));
      const missing = new Map<string, string>();
      for (const step of pipe.blueprint.steps) {
        const child = library.findPipe(step.pipe, pipe.domain_code);
        for (const input of child?.inputs ?? []) {
          const root = input.name.split('.')[0]!;
          if (step.batch_as !== undefined && root === step.batch_as) {
            if (step.batch_over !== undefined && !available.has(step.batch_over) && !missing.has(step.batch_over)) missing.set(step.batch_over, `${input.raw.replace(/\[\d*\]$/, '')}[]`);
            continue;
          }
          if (!available.has(root) && !missing.has(root)) missing.set(root, input.raw);
        }
        if (step.result) available.add(step.result);
        if (child) producedNames(library, child).forEach((name) => available.add(name));
      }
      if (missing.size === 0) continue;
      const names = [...missing.keys()].sort();
      const ops: FixOp[] = names.map((name) => ({ kind: 'set_key', table_path: ['pipe', pipe.code, 'inputs'], key: name, value: missing.get(name)! }));
      items.push({
        category: 'pipe_validation',
        message: `Pipe '${pipe.code}': its steps need ${names.map((name) => `'${name}'`).join(', ')}, which ${names.length > 1 ? 'are' : 'is'} neither a declared input nor produced by an earlier step. Declare ${names.length > 1 ? 'them' : 'it'} in inputs.`,
        error_type: 'missing_input_variable',
        ...aboutPipe(pipe),
        field_path: `pipe.${pipe.code}.inputs`,
        field_name: 'inputs',
        variable_names: names,
        suggested_fix: {
          fix_code: 'sync-controller-inputs',
          description: `Declare ${names.join(', ')} in the inputs of '${pipe.code}'.`,
          safety: 'safe',
          source: pipe.source,
          ops,
        },
      });
    }
    return items;
  },
};
