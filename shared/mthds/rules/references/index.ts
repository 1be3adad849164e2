/**
 * Stage S5 rules (references), in order of enforcement.
 * @see docs/rules.md#references-s5
 */
import type { Rule } from '../rule.js';
import { hintInapplicableIntent } from './hint-inapplicable-intent.js';
import { hintUnknownIntent } from './hint-unknown-intent.js';
import { hintUnknownKey } from './hint-unknown-key.js';
import { packageRefs } from './package-refs.js';
import { pipeConceptRefs } from './pipe-concept-refs.js';
import { pipeRefs } from './pipe-refs.js';
import { referenceSyntax } from './reference-syntax.js';
import { refinementCycles } from './refinement-cycles.js';
import { retiredNatives } from './retired-natives.js';
import { structureConceptRefs } from './structure-concept-refs.js';
import { structureCycles } from './structure-cycles.js';
import { unexportedPipeRefs } from './unexported-pipe-refs.js';

/** The S5 rules, in order. */
export const S5_RULES: readonly Rule[] = [
  referenceSyntax,
  pipeConceptRefs,
  retiredNatives,
  structureConceptRefs,
  pipeRefs,
  packageRefs,
  unexportedPipeRefs,
  refinementCycles,
  structureCycles,
  hintUnknownKey,
  hintUnknownIntent,
  hintInapplicableIntent,
];
