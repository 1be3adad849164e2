import { expect } from 'chai';
import { fieldName } from '../../../../../shared/mthds/rules/structures/field-name.js';
import { bundle, runRule } from '../harness.js';

const concept = (fields: string) =>
  bundle('hr', `[concept.Profile]\ndescription = "A profile"\n[concept.Profile.structure]\n${fields}`);

describe('S3-field-name', () => {
  describe('when a field name starts with _ or is reserved', () => {
    it('should report each, string-form fields included', () => {
      const items = runRule(
        fieldName,
        concept('_secret = "Hidden"\nmodel_config = { type = "text", description = "c" }\njson = "Raw"'),
      );
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message: "Concept 'Profile', field '_secret': field names must not start with '_'; rename the field.",
        error_type: 'invalid_concept_field',
        source: 'bundle-1.mthds',
        concept_code: 'Profile',
        domain_code: 'hr',
        field_path: 'concept.Profile.structure._secret',
        field_name: '_secret',
      });
      expect(items.slice(1).map((item) => item.message)).to.deep.equal([
        "Concept 'Profile', field 'model_config': names starting with 'model_' are reserved; rename the field.",
        "Concept 'Profile', field 'json': 'json' is a reserved name; rename the field.",
      ]);
    });
  });

  describe('when field names are ordinary (description included)', () => {
    it('should pass', () => {
      expect(
        runRule(
          fieldName,
          concept('description = "What it is"\nname = { type = "text", description = "n" }\nmodel = "The model name"'),
        ),
      ).to.deep.equal([]);
    });
  });
});
