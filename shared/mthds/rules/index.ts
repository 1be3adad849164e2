/**
 * The static rules of the language core by stage (docs/rules.md): the structure rules (S2–S3) need no resolution and
 * run first; the library rules (S4–S5b) run once the structure is sound. A new rule is one module and one line in its
 * stage's `index.ts`.
 * @see docs/rules.md
 */

import { S5B_RULES } from './data-flow/index.js';
import { S2_RULES } from './declarations/index.js';
import { S4_RULES } from './pipes/index.js';
import { S5_RULES } from './references/index.js';
import type { Rule } from './rule.js';
import { S3_RULES } from './structures/index.js';

/** Rules of the bundle structure (S2–S3). */
export const STRUCTURE_RULES: readonly Rule[] = [...S2_RULES, ...S3_RULES];

/** Rules of pipes, references and data flow (S4–S5b). */
export const LIBRARY_RULES: readonly Rule[] = [...S4_RULES, ...S5_RULES, ...S5B_RULES];

/** Every rule, in order of enforcement. */
export const ALL_RULES: readonly Rule[] = [...STRUCTURE_RULES, ...LIBRARY_RULES];

export { VALIDATION_ERROR_TYPES, type ValidationErrorType } from './error-types.js';
export type { PackageExports, Rule, RuleContext, RuleStage, ValidationMode } from './rule.js';
