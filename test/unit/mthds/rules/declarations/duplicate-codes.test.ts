import { expect } from 'chai';
import { duplicateCodes } from '../../../../../shared/mthds/rules/declarations/duplicate-codes.js';
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

  describe('when one bundle declares a signature and another implements it with the same contract', () => {
    const signature = '[pipe.summarize]\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"';
    const concrete =
      '[pipe.summarize]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { doc = "Text" }\noutput = "Text"\nprompt = "Sum up $doc"';

    it('should reconcile them, in either order', () => {
      expect(runRule(duplicateCodes, [bundle('docs', signature), bundle('docs', concrete)])).to.deep.equal([]);
      expect(runRule(duplicateCodes, [bundle('docs', concrete), bundle('docs', signature)])).to.deep.equal([]);
    });

    it('should still report a second implementation', () => {
      expect(
        runRule(duplicateCodes, [bundle('docs', signature), bundle('docs', concrete), bundle('docs', concrete)]).map(
          (item) => [item.source, item.message],
        ),
      ).to.deep.equal([
        [
          'bundle-3.mthds',
          "Pipe 'docs.summarize' is declared twice (first in bundle-2.mthds): bundles of one domain share one namespace. Rename or remove one.",
        ],
      ]);
    });

    it('should report an implementation whose contract differs', () => {
      expect(
        runRule(duplicateCodes, [
          bundle('docs', signature),
          bundle('docs', concrete.replace('output = "Text"', 'output = "Text[]"')),
        ]),
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'docs.summarize' is declared both as a signature and as a concrete pipe (the other in bundle-1.mthds), with different inputs or output: a signature and its implementation must declare the same inputs and output.",
          error_type: 'duplicate_code',
          source: 'bundle-2.mthds',
          domain_code: 'docs',
          field_path: 'pipe.summarize',
          pipe_code: 'summarize',
        },
      ]);
    });
  });
});
