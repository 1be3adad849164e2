import { expect } from 'chai';
import { refinementCycles } from '../../../../../shared/mthds/rules/references/refinement-cycles.js';
import { bundle, runRule } from '../harness.js';

describe('S5-refinement-cycles', () => {
  describe('when concepts refine each other in a loop', () => {
    it('should report the cycle once', () => {
      const text = bundle(
        'loop',
        '[concept.A]\ndescription = "a"\nrefines = "B"\n[concept.B]\ndescription = "b"\nrefines = "C"\n[concept.C]\ndescription = "c"\nrefines = "A"',
      );
      expect(runRule(refinementCycles, text)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept 'loop.A' refines itself through loop.A → loop.B → loop.C → loop.A: refinement must not loop. Break the cycle.",
          error_type: 'circular_dependency_error',
          source: 'bundle-1.mthds',
          concept_code: 'A',
          domain_code: 'loop',
          field_path: 'concept.A.refines',
          field_name: 'refines',
        },
      ]);
    });
  });

  describe('when refinement chains end', () => {
    it('should pass', () => {
      expect(
        runRule(
          refinementCycles,
          bundle(
            'chain',
            '[concept.A]\ndescription = "a"\nrefines = "B"\n[concept.B]\ndescription = "b"\nrefines = "Text"',
          ),
        ),
      ).to.deep.equal([]);
    });
  });
});
