import { expect } from 'chai';
import { requiredWithDefault } from '../../../../../shared/mthds/rules/structures/required-with-default.js';
import { bundle, runRule } from '../harness.js';

const concept = (fields: string) =>
  bundle('hr', `[concept.Offer]\ndescription = "An offer"\n[concept.Offer.structure]\n${fields}`);

describe('S3-required-with-default', () => {
  describe('when a field is required and has a default_value (E3)', () => {
    it('should report it as the reference does: no error_type, the field path in the message', () => {
      const items = runRule(
        requiredWithDefault,
        concept('currency = { type = "text", description = "Currency", required = true, default_value = "EUR" }'),
      );
      expect(items).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept validation error at 'concept.Offer.structure.currency': Value error, a field cannot be both required and have a default_value (\"EUR\"): a default makes the field's absence legal. Remove required = true or the default_value.",
          source: 'bundle-1.mthds',
          concept_code: 'Offer',
          domain_code: 'hr',
        },
      ]);
    });

    it('should report a falsy default too', () => {
      const items = runRule(
        requiredWithDefault,
        concept('remote = { type = "boolean", description = "Remote", required = true, default_value = false }'),
      );
      expect(items.map((item) => item.message)).to.deep.equal([
        "Concept validation error at 'concept.Offer.structure.remote': Value error, a field cannot be both required and have a default_value (false): a default makes the field's absence legal. Remove required = true or the default_value.",
      ]);
    });
  });

  describe('when a field is required without a default, or optional with one', () => {
    it('should pass', () => {
      const fields = [
        'currency = { type = "text", description = "Currency", required = true }',
        'remote = { type = "boolean", description = "Remote", required = false, default_value = false }',
        'level = { type = "text", description = "Level", default_value = "junior" }',
        'notes = "Notes"',
      ].join('\n');
      expect(runRule(requiredWithDefault, concept(fields))).to.deep.equal([]);
    });
  });
});
