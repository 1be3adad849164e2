import { expect } from 'chai';
import { duplicateCodes } from '../../../../../shared/mthds/rules/s2/duplicate-codes.js';
import { bundle, runRule } from '../harness.js';

describe('S2-duplicate-codes', () => {
  describe('when two bundles of one domain declare the same concept code', () => {
    it('should report the second declaration', () => {
      expect(
        runRule(duplicateCodes, [
          bundle('shop', '[concept]\nItem = "An item"'),
          bundle('shop', '[concept]\nItem = "Another item"'),
        ]),
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Concept 'shop.Item' is declared twice (first in bundle-1.mthds): bundles of one domain share one namespace. Rename or remove one.",
          error_type: 'duplicate_code',
          source: 'bundle-2.mthds',
          domain_code: 'shop',
          field_path: 'concept.Item',
          concept_code: 'Item',
        },
      ]);
    });
  });

  describe('when the same code is declared in different domains, or as a concept and a pipe', () => {
    it('should pass', () => {
      const pipe = '[pipe.item]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"';
      expect(
        runRule(duplicateCodes, [
          bundle('shop', '[concept]\nItem = "An item"'),
          bundle('stock', `[concept]\nItem = "Another item"\n${pipe}`),
          bundle('shop', pipe),
        ]),
      ).to.deep.equal([]);
    });
  });
});
