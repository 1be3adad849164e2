import { expect } from 'chai';
import { defaultValue } from '../../../../../shared/mthds/rules/structures/default-value.js';
import { bundle, runRule } from '../harness.js';

const concept = (fields: string) =>
  bundle(
    'hr',
    `[concept.Skill]\ndescription = "A skill"\n[concept.Offer]\ndescription = "An offer"\n[concept.Offer.structure]\n${fields}`,
  );

describe('S3-default-value', () => {
  describe('when a default does not match its type, its choices, or sits on a concept field', () => {
    it('should report each', () => {
      const items = runRule(
        defaultValue,
        concept(
          [
            'salary = { type = "integer", description = "Salary", default_value = 1.5 }',
            'level = { description = "Level", choices = ["junior", "senior"], default_value = "lead" }',
            'skill = { type = "concept", concept_ref = "Skill", description = "Skill", default_value = "x" }',
            'start = { type = "date", description = "Start", default_value = "soon" }',
          ].join('\n'),
        ),
      );
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message: "Concept 'Offer', field 'salary': default_value 1.5 does not match type \"integer\".",
        error_type: 'invalid_concept_field',
        source: 'bundle-1.mthds',
        concept_code: 'Offer',
        domain_code: 'hr',
        field_path: 'concept.Offer.structure.salary',
        field_name: 'salary',
      });
      expect(items.slice(1).map((item) => item.message)).to.deep.equal([
        "Concept 'Offer', field 'level': default_value \"lead\" must be one of the choices (junior, senior).",
        "Concept 'Offer', field 'skill': default_value \"x\" is not allowed on a concept field.",
        'Concept \'Offer\', field \'start\': default_value "soon" does not match type "date".',
      ]);
    });
  });

  describe('when a datetime or time default is not one (docs/concepts.md#structure-fields)', () => {
    it('should report each', () => {
      const fields = [
        'sent = { type = "datetime", description = "Sent", default_value = 2025-01-06 }',
        'opens = { type = "time", description = "Opens", default_value = "9am" }',
      ].join('\n');
      expect(runRule(defaultValue, concept(fields)).map((item) => item.message)).to.deep.equal([
        'Concept \'Offer\', field \'sent\': default_value "2025-01-06" does not match type "datetime".',
        'Concept \'Offer\', field \'opens\': default_value "9am" does not match type "time".',
      ]);
    });
  });

  describe('when defaults match', () => {
    it('should pass, TOML dates included', () => {
      const fields = [
        'salary = { type = "integer", description = "Salary", default_value = 50000 }',
        'rate = { type = "number", description = "Rate", default_value = 3 }',
        'level = { type = "text", description = "Level", choices = ["junior", "senior"], default_value = "junior" }',
        'start = { type = "date", description = "Start", default_value = 2025-01-06 }',
        'sent = { type = "datetime", description = "Sent", default_value = 2025-01-06T09:30:00Z }',
        'local = { type = "datetime", description = "Local", default_value = 2025-01-06T09:30:00 }',
        'opens = { type = "time", description = "Opens", default_value = 09:00:00 }',
        'tags = { type = "list", description = "Tags", default_value = ["a"] }',
        'meta = { type = "dict", key_type = "text", value_type = "text", description = "Meta", default_value = { a = "b" } }',
      ].join('\n');
      expect(runRule(defaultValue, concept(fields))).to.deep.equal([]);
    });
  });
});
