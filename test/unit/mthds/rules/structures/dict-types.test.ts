import { expect } from 'chai';
import { dictTypes } from '../../../../../shared/mthds/rules/structures/dict-types.js';
import { bundle, runRule } from '../harness.js';

const concept = (fields: string) =>
  bundle('hr', `[concept.Rates]\ndescription = "Rates"\n[concept.Rates.structure]\n${fields}`);

describe('S3-dict-types', () => {
  describe('when a dict field lacks key_type or value_type', () => {
    it('should report it', () => {
      expect(
        runRule(dictTypes, concept('by_day = { type = "dict", key_type = "text", description = "Rates by day" }')),
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            'Concept \'Rates\', field \'by_day\': a dict field needs non-empty key_type and value_type (e.g. key_type = "text", value_type = "number").',
          error_type: 'invalid_concept_field',
          source: 'bundle-1.mthds',
          concept_code: 'Rates',
          domain_code: 'hr',
          field_path: 'concept.Rates.structure.by_day',
          field_name: 'by_day',
        },
      ]);
    });
  });

  describe('when a dict field names both types', () => {
    it('should pass', () => {
      expect(
        runRule(
          dictTypes,
          concept('by_day = { type = "dict", key_type = "text", value_type = "number", description = "Rates by day" }'),
        ),
      ).to.deep.equal([]);
    });
  });
});
