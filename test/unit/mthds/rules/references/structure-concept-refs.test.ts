import { expect } from 'chai';
import { structureConceptRefs } from '../../../../../shared/mthds/rules/references/structure-concept-refs.js';
import { bundle, runRule } from '../harness.js';

describe('S5-structure-concept-refs', () => {
  describe('when refines or a field concept_ref names nothing', () => {
    it('should report each', () => {
      const text = bundle(
        'hr',
        '[concept.Memo]\ndescription = "m"\nrefines = "Txt"\n[concept.Team]\ndescription = "t"\n[concept.Team.structure]\nlead = { type = "concept", concept_ref = "Person", description = "Lead" }',
      );
      const items = runRule(structureConceptRefs, text);
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message: "Concept 'Memo', field 'refines': concept 'Txt' is neither native nor declared by a loaded bundle.",
        error_type: 'unresolved_concept',
        source: 'bundle-1.mthds',
        concept_code: 'Memo',
        domain_code: 'hr',
        field_path: 'concept.Memo.refines',
        field_name: 'refines',
        missing_concept_code: 'Txt',
      });
      expect(items.slice(1).map((item) => [item.field_path, item.missing_concept_code])).to.deep.equal([
        ['concept.Team.structure.lead.concept_ref', 'Person'],
      ]);
    });
  });

  describe('when they resolve', () => {
    it('should pass', () => {
      const text = bundle(
        'hr',
        '[concept.Person]\ndescription = "p"\n[concept.Memo]\ndescription = "m"\nrefines = "Text"\n[concept.Team]\ndescription = "t"\n[concept.Team.structure]\nlead = { type = "concept", concept_ref = "hr.Person", description = "Lead" }\nmembers = { type = "list", item_type = "concept", item_concept_ref = "Person", description = "Members" }',
      );
      expect(runRule(structureConceptRefs, text, 'strict')).to.deep.equal([]);
    });
  });
});
