import { expect } from 'chai';
import { fieldConceptRefs } from '../../../../../shared/mthds/rules/structures/field-concept-refs.js';
import { bundle, runRule } from '../harness.js';

const concept = (fields: string) =>
  bundle(
    'hr',
    `[concept.Skill]\ndescription = "A skill"\n[concept.Team]\ndescription = "A team"\n[concept.Team.structure]\n${fields}`,
  );

describe('S3-field-concept-refs', () => {
  describe('when concept_ref or item_concept_ref is missing or misplaced', () => {
    it('should report each', () => {
      const items = runRule(
        fieldConceptRefs,
        concept(
          'lead = { type = "concept", description = "Lead" }\nskills = { type = "list", item_type = "concept", description = "Skills" }\nname = { type = "text", concept_ref = "Skill", description = "n" }',
        ),
      );
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message: 'Concept \'Team\', field \'lead\': type = "concept" needs concept_ref = "<Concept>".',
        error_type: 'invalid_concept_field',
        source: 'bundle-1.mthds',
        concept_code: 'Team',
        domain_code: 'hr',
        field_path: 'concept.Team.structure.lead',
        field_name: 'lead',
      });
      expect(items.slice(1).map((item) => item.message)).to.deep.equal([
        'Concept \'Team\', field \'skills\': item_type = "concept" needs item_concept_ref = "<Concept>".',
        "Concept 'Team', field 'name': concept_ref is only allowed with type = \"concept\".",
      ]);
    });
  });

  describe('when each ref sits with its type', () => {
    it('should pass', () => {
      expect(
        runRule(
          fieldConceptRefs,
          concept(
            'lead = { type = "concept", concept_ref = "Skill", description = "Lead" }\nskills = { type = "list", item_type = "concept", item_concept_ref = "Skill", description = "Skills" }',
          ),
        ),
      ).to.deep.equal([]);
    });
  });
});
