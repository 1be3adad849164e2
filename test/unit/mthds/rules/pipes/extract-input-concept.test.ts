import { expect } from 'chai';
import { extractInputConcept } from '../../../../../shared/mthds/rules/pipes/extract-input-concept.js';
import { bundle, runEach, runRule } from '../harness.js';

const extract = (input: string) =>
  bundle(
    'docs',
    `[concept.Scan]\ndescription = "A scan"\nrefines = "Image"\n[pipe.read]\ntype = "PipeExtract"\ndescription = "d"\ninputs = { source = "${input}" }\noutput = "Page[]"`,
  );

describe('S4-extract-input-concept', () => {
  describe('when the input is neither a Document nor an Image', () => {
    it('should warn', () => {
      expect(extractInputConcept.severity).to.equal('warning');
      expect(runRule(extractInputConcept, extract('Text'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message: "Pipe 'read': a PipeExtract reads a Document or an Image, but input 'source' is 'Text'.",
          error_type: 'input_stuff_spec_mismatch',
          source: 'bundle-1.mthds',
          pipe_code: 'read',
          domain_code: 'docs',
          field_path: 'pipe.read.inputs.source',
          field_name: 'source',
        },
      ]);
    });
  });

  describe('when it is a Document, an Image or a refinement', () => {
    it('should pass', () => {
      expect(
        runEach(extractInputConcept, [extract('Document'), extract('native.Image'), extract('Scan')]),
      ).to.deep.equal([]);
    });
  });
});
