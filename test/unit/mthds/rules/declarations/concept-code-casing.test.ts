import { expect } from 'chai';
import { conceptCodeCasing } from '../../../../../shared/mthds/rules/declarations/concept-code-casing.js';
import { bundle, runRule } from '../harness.js';

describe('S2-concept-code-casing', () => {
  describe('when a concept code is not PascalCase', () => {
    it('should report it with a suggestion', () => {
      expect(runRule(conceptCodeCasing, bundle('hr', '[concept]\nmatch_analysis = "A match"'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept code 'match_analysis' must be PascalCase (a capital letter, then letters and digits), e.g. 'MatchAnalysis'.",
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
      expect(
        runRule(conceptCodeCasing, bundle('hr', '[concept]\nMatchAnalysis = "A match"\nCV2 = "A CV"')),
      ).to.deep.equal([]);
    });
  });

  describe('when a concept code is qualified with the bundle domain', () => {
    it('should report it with a safe strip-namespace fix', () => {
      expect(runRule(conceptCodeCasing, bundle('hr', '[concept]\n"hr.Match" = "A match"'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept code 'hr.Match' is qualified with a domain; a bundle declares its concepts by bare code ('Match'), the bundle's domain qualifies them.",
          error_type: 'invalid_concept_code_syntax',
          source: 'bundle-1.mthds',
          concept_code: 'hr.Match',
          domain_code: 'hr',
          field_path: 'concept.hr.Match',
          suggested_fix: {
            fix_code: 'strip-namespace',
            description:
              "Declare [concept.Match] without the 'hr.' qualifier: the bundle's domain already qualifies it.",
            safety: 'safe',
            source: 'bundle-1.mthds',
            ops: [{ kind: 'rename_table_key', table_path: ['concept'], key: 'hr.Match', new_key: 'Match' }],
          },
        },
      ]);
    });
  });

  describe('when the bare code of a qualified concept code is a native or already declared', () => {
    it('should report each without a fix', () => {
      const items = runRule(
        conceptCodeCasing,
        bundle('hr', '[concept]\n"native.Text" = "A text"\nMatch = "A match"\n"hr.Match" = "Another"'),
      );
      expect(items.map((item) => [item.concept_code, item.suggested_fix])).to.deep.equal([
        ['native.Text', undefined],
        ['hr.Match', undefined],
      ]);
    });
  });
});
