/**
 * Stage S2 rules (bundle structure), in order of enforcement. A new rule is one module and one line here.
 * @see docs/rules.md#declarations-s2
 */
import type { Rule } from '../rule.js';
import { conceptCodeCasing } from './concept-code-casing.js';
import { domainCode } from './domain-code.js';
import { domainShape } from './domain-shape.js';
import { dottedInputNames } from './dotted-input-names.js';
import { duplicateCodes } from './duplicate-codes.js';
import { inputNameCasing } from './input-name-casing.js';
import { mainPipeDefined } from './main-pipe-defined.js';
import { multiplicityRange } from './multiplicity-range.js';
import { nativeRedeclaration } from './native-redeclaration.js';
import { optionalMarkers } from './optional-markers.js';
import { pipeCodeCasing } from './pipe-code-casing.js';
import { refinesOrStructure } from './refines-or-structure.js';
import { reservedDomain } from './reserved-domain.js';
import { strictSnakeCase } from './strict-snake-case.js';

/** The S2 rules, in order. */
export const S2_RULES: readonly Rule[] = [
  domainCode,
  domainShape,
  reservedDomain,
  mainPipeDefined,
  conceptCodeCasing,
  pipeCodeCasing,
  inputNameCasing,
  dottedInputNames,
  optionalMarkers,
  multiplicityRange,
  strictSnakeCase,
  nativeRedeclaration,
  refinesOrStructure,
  duplicateCodes,
];
