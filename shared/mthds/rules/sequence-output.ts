/**
 * S5b V-O1: a sequence's declared output is compatible with what its last step produces (the reference's
 * `inadequate_output_concept`; fix id `match-sequence-output`). LANGUAGE.md §4.3, §6 S5b.
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import { stripMultiplicity } from '../references.js';
import { aboutPipe, pipesOf, type Rule } from './rule.js';

const UNCHECKED = new Set(['native.Anything', 'native.Dynamic']);

export const sequenceOutput: Rule = {
  id: 'S5b-sequence-output',
  stage: 'S5b',
  severity: 'error',
  see: 'LANGUAGE.md §4.3, §6 S5b V-O1',
  check: (context) => {
    const { library } = context;
    const items: ValidationErrorItem[] = [];
    for (const pipe of pipesOf(context)) {
      if (pipe.blueprint.type !== 'PipeSequence') continue;
      const last = pipe.blueprint.steps[pipe.blueprint.steps.length - 1];
      const stepPipe = last ? library.findPipe(last.pipe, pipe.domain_code) : undefined;
      const produced = stepPipe ? library.findConcept(stepPipe.output.conceptRef, stepPipe.domain_code) : undefined;
      const expected = library.findConcept(pipe.output.conceptRef, pipe.domain_code);
      if (!last || !stepPipe || !produced || !expected || 'ambiguous' in produced || 'ambiguous' in expected) continue;
      if (UNCHECKED.has(produced.ref) || UNCHECKED.has(expected.ref) || library.isCompatible(produced, expected)) continue;
      const producedRaw = last.batch_over !== undefined ? `${stripMultiplicity(stepPipe.output.raw)}[]` : stepPipe.output.raw;
      items.push({
        category: 'pipe_validation',
        message: `Pipe '${pipe.code}' declares output "${pipe.output.raw}", but its last step '${stepPipe.code}' produces "${producedRaw}" (${produced.ref} is not ${expected.ref} nor refines it).`,
        error_type: 'inadequate_output_concept',
        ...aboutPipe(pipe),
        field_path: `pipe.${pipe.code}.output`,
        field_name: 'output',
        suggested_fix: {
          fix_code: 'match-sequence-output',
          description: `Set the output of '${pipe.code}' to what its last step produces ("${producedRaw}").`,
          safety: 'unsafe',
          source: pipe.source,
          ops: [{ kind: 'set_key', table_path: ['pipe', pipe.code], key: 'output', value: producedRaw }],
        },
      });
    }
    return items;
  },
};
