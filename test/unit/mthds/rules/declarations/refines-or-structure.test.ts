import { expect } from 'chai';
import { refinesOrStructure } from '../../../../../shared/mthds/rules/declarations/refines-or-structure.js';
import { bundle, runRule } from '../harness.js';

describe('S2-refines-or-structure', () => {
  describe('when a concept sets refines and structure', () => {
    it('should report it', () => {
      const text = bundle(
        'mail',
        '[concept.Email]\ndescription = "An e-mail"\nrefines = "Text"\n[concept.Email.structure]\nsubject = "The subject"',
      );
      expect(runRule(refinesOrStructure, text)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept 'Email' sets both refines ('Text') and structure: a refining concept takes its parent's structure. Keep one of them.",
          error_type: 'refines_and_structure',
          source: 'bundle-1.mthds',
          concept_code: 'Email',
          domain_code: 'mail',
          field_path: 'concept.Email',
        },
      ]);
    });
  });

  describe('when a concept sets one of them', () => {
    it('should pass', () => {
      const text = bundle(
        'mail',
        '[concept.Email]\ndescription = "An e-mail"\nrefines = "Text"\n[concept.Header]\ndescription = "h"\n[concept.Header.structure]\nsubject = "The subject"',
      );
      expect(runRule(refinesOrStructure, text)).to.deep.equal([]);
    });
  });
});
