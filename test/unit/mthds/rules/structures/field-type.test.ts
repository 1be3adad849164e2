import { expect } from 'chai';
import { fieldType } from '../../../../../shared/mthds/rules/structures/field-type.js';
import { bundle, runRule } from '../harness.js';

const concept = (fields: string) =>
  bundle('hr', `[concept.Profile]\ndescription = "A profile"\n[concept.Profile.structure]\n${fields}`);

describe('S3-field-type', () => {
  describe('when a field has neither type nor choices', () => {
    it('should report it', () => {
      expect(runRule(fieldType, concept('level = { description = "Level", choices = [] }'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept 'Profile', field 'level': set a type (text, integer, number, boolean, date, datetime, time, list, dict or concept), or non-empty choices for an enum field.",
          error_type: 'invalid_concept_field',
          source: 'bundle-1.mthds',
          concept_code: 'Profile',
          domain_code: 'hr',
          field_path: 'concept.Profile.structure.level',
          field_name: 'level',
        },
      ]);
    });
  });

  describe('when choices come with a type other than text', () => {
    it('should report it in both modes', () => {
      const text = concept('level = { type = "integer", description = "Level", choices = ["1", "2"] }');
      const expected =
        'Concept \'Profile\', field \'level\': choices make an enum field, so type = "integer" must be removed (only type = "text" is tolerated with choices).';
      expect(runRule(fieldType, text).map((item) => item.message)).to.deep.equal([expected]);
      expect(runRule(fieldType, text, 'strict')).to.have.length(1);
    });
  });

  describe('when choices come with type = "text"', () => {
    const text = concept('level = { type = "text", description = "Level", choices = ["low", "high"] }');

    it('should pass in compat mode', () => {
      expect(runRule(fieldType, text, 'compat')).to.deep.equal([]);
    });

    it('should report it in strict mode', () => {
      expect(runRule(fieldType, text, 'strict').map((item) => item.message)).to.deep.equal([
        "Concept 'Profile', field 'level': choices make an enum field, so type = \"text\" must be removed (strict mode).",
      ]);
    });
  });

  describe('when fields have a type, or choices only', () => {
    it('should pass in strict mode', () => {
      expect(
        runRule(
          fieldType,
          concept(
            'age = { type = "integer", description = "Age" }\nlevel = { description = "Level", choices = ["low", "high"] }',
          ),
          'strict',
        ),
      ).to.deep.equal([]);
    });
  });
});
