/**
 * S2: concept codes are PascalCase, pipe codes snake_case, input names snake_case (dotted allowed).
 * LANGUAGE.md §1.3.
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import { CONCEPT_CODE, INPUT_NAME, PIPE_CODE } from '../references.js';
import type { Rule } from './rule.js';

export const codeCasing: Rule = {
  id: 'S2-code-casing',
  stage: 'S2',
  severity: 'error',
  see: 'LANGUAGE.md §1.3',
  check: ({ bundles }) =>
    bundles.flatMap(({ blueprint, source }) => {
      const items: ValidationErrorItem[] = [];
      const domain_code = blueprint.domain;
      for (const code of Object.keys(blueprint.concept)) {
        if (!CONCEPT_CODE.test(code)) {
          items.push({ category: 'blueprint_validation', message: `Concept code '${code}' must be PascalCase (e.g. ${code.charAt(0).toUpperCase()}${code.slice(1).replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}).`, error_type: 'invalid_concept_code_syntax', source, concept_code: code, domain_code, field_path: `concept.${code}` });
        }
      }
      for (const [code, pipe] of Object.entries(blueprint.pipe)) {
        if (!PIPE_CODE.test(code)) {
          items.push({ category: 'blueprint_validation', message: `Pipe code '${code}' must be snake_case (lowercase letters, digits and underscores, starting with a letter).`, error_type: 'invalid_pipe_code_syntax', source, pipe_code: code, domain_code, field_path: `pipe.${code}` });
        }
        for (const name of Object.keys(pipe.inputs ?? {})) {
          if (!INPUT_NAME.test(name)) {
            items.push({ category: 'blueprint_validation', message: `Input name '${name}' of pipe '${code}' must be snake_case (dotted segments allowed).`, error_type: 'invalid_input_name', source, pipe_code: code, domain_code, field_path: `pipe.${code}.inputs.${name}`, field_name: name });
          }
        }
      }
      return items;
    }),
};
