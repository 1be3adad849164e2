import { expect } from 'chai';
import { conceptCodeCasing } from '../../../../../shared/mthds/rules/s2/concept-code-casing.js';
import { bundle, runRule } from '../harness.js';

describe('S2-concept-code-casing', () => {
  describe('when a concept code is not PascalCase', () => {
    it('should report it with a suggestion', () => {
      expect(runRule(conceptCodeCasing, bundle('hr', '[concept]\nmatch_analysis = "A match"'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Concept code 'match_analysis' must be PascalCase (a capital letter, then letters and digits), e.g. 'MatchAnalysis'.",
          error_type: 'invalid_concept_code_syntax',
          source: 'bundle-1.mthds',
          concept_code: 'match_analysis',
          domain_code: 'hr',
          field_path: 'concept.match_analysis',
        },
      ]);
    });
  });

  describe('when concept codes are PascalCase', () => {
    it('should pass', () => {
      expect(runRule(conceptCodeCasing, bundle('hr', '[concept]\nMatchAnalysis = "A match"\nCV2 = "A CV"'))).to.deep.equal([]);
    });
  });
});
