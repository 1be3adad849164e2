import { expect } from 'chai';
import { structureCycles } from '../../../../../shared/mthds/rules/references/structure-cycles.js';
import { bundle, runRule } from '../harness.js';

describe('S5-structure-cycles', () => {
  describe('when a concept contains itself through its fields', () => {
    it('should report the cycle once', () => {
      const text = bundle(
        'org',
        '[concept.Team]\ndescription = "t"\n[concept.Team.structure]\nlead = { type = "concept", concept_ref = "Person", description = "Lead" }\n[concept.Person]\ndescription = "p"\n[concept.Person.structure]\nteams = { type = "list", item_type = "concept", item_concept_ref = "Team", description = "Teams" }',
      );
      expect(runRule(structureCycles, text)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept 'org.Team' contains itself through org.Team → org.Person → org.Team: structures must not nest in a loop. Break the cycle.",
          error_type: 'circular_dependency_error',
          source: 'bundle-1.mthds',
          concept_code: 'Team',
          domain_code: 'org',
          field_path: 'concept.Team.structure',
          field_name: 'structure',
        },
      ]);
    });
  });

  describe('when nested concepts form a tree', () => {
    it('should pass', () => {
      const text = bundle(
        'org',
        '[concept.Team]\ndescription = "t"\n[concept.Team.structure]\nlead = { type = "concept", concept_ref = "Person", description = "Lead" }\nmembers = { type = "list", item_type = "concept", item_concept_ref = "Person", description = "Members" }\n[concept.Person]\ndescription = "p"\n[concept.Person.structure]\nname = "Name"',
      );
      expect(runRule(structureCycles, text)).to.deep.equal([]);
    });
  });
});
