/**
 * Stage S5b rules (data flow, as the reference enforces it), in order of enforcement.
 * @see docs/rules.md#data-flow-s5b
 */
import type { Rule } from '../rule.js';
import { bindingPaths } from './binding-paths.js';
import { controllerInputs } from './controller-inputs.js';
import { controllerOutputs } from './controller-outputs.js';
import { flowConcepts } from './flow-concepts.js';
import { flowMultiplicity, flowMultiplicityWarning } from './flow-multiplicity.js';
import { inputPresenceVacuous } from './input-presence-vacuous.js';
import { optionalBranchRequiredField } from './optional-branch-required-field.js';
import { optionalForceRedundant } from './optional-force-redundant.js';
import { optionalNotHandled } from './optional-not-handled.js';
import { optionalOutputRequired } from './optional-output-required.js';
import { sequenceInputs } from './sequence-inputs.js';
import { sequenceOutput } from './sequence-output.js';

/** The S5b rules, in order. */
export const S5B_RULES: readonly Rule[] = [
  sequenceInputs,
  bindingPaths,
  controllerInputs,
  sequenceOutput,
  controllerOutputs,
  flowConcepts,
  flowMultiplicity,
  flowMultiplicityWarning,
  optionalOutputRequired,
  optionalNotHandled,
  optionalBranchRequiredField,
  optionalForceRedundant,
  inputPresenceVacuous,
];
