/**
 * S5 (strict mode): a pipe does not name a retired native. `ImgGenPrompt` left the natives in the newer reference
 * (MTHDS standard v0.8.0: use `Text`), which no longer resolves it; the 0.16-era reference and published bundles still
 * use it, so compat mode keeps it as a Text-shaped legacy native.
 * @see docs/concepts.md#native-concepts
 */
import { MESSAGES } from '../../messages.js';
import { stripMultiplicity } from '../../references.js';
import type { Rule } from '../rule.js';
import { pipeField, pipeItem, pipesOf } from '../rule-item.js';
import { conceptRefsOf } from './references-of.js';

/** The retired natives and what to write instead. */
const RETIRED: ReadonlyMap<string, string> = new Map([['ImgGenPrompt', 'Text']]);

function retiredCode(ref: string): string | undefined {
  const bare = stripMultiplicity(ref).replace(/^native\./, '');
  return RETIRED.has(bare) ? bare : undefined;
}

/** S5 retired natives, strict mode only (`unresolved_concept`). */
export const retiredNatives: Rule = {
  id: 'S5-retired-natives',
  stage: 'S5',
  severity: 'error',
  category: 'pipe_validation',
  error_type: 'unresolved_concept',
  see: 'docs/rules.md#s5-retired-natives',
  check: (context) =>
    context.mode === 'compat'
      ? []
      : pipesOf(context).flatMap((pipe) =>
          conceptRefsOf(pipe).flatMap(({ field, ref }) => {
            const code = retiredCode(ref);
            if (code === undefined) return [];
            const message = MESSAGES.retired_native({ pipe: pipe.code, field, code, instead: RETIRED.get(code)! });
            return [pipeItem(retiredNatives, pipe, message, { ...pipeField(pipe, field), missing_concept_code: code })];
          }),
        ),
};
