import { expect } from 'chai';
import { extractOutputPages } from '../../../../../shared/mthds/rules/pipes/extract-output-pages.js';
import { bundle, runEach, runRule } from '../harness.js';

const extract = (output: string) =>
  bundle(
    'docs',
    `[pipe.read]\ntype = "PipeExtract"\ndescription = "d"\ninputs = { document = "Document" }\noutput = "${output}"`,
  );

describe('S4-extract-output-pages', () => {
  describe('when the output is not Page[]', () => {
    it('should report a single Page and a Text list', () => {
      expect(runRule(extractOutputPages, extract('Page'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message: 'Pipe \'read\': a PipeExtract outputs "Page[]", not "Page".',
          error_type: 'inadequate_output_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'read',
          domain_code: 'docs',
          field_path: 'pipe.read.output',
          field_name: 'output',
        },
      ]);
      expect(runRule(extractOutputPages, extract('Text[]'))).to.have.length(1);
    });
  });

  describe('when the output is Page[]', () => {
    it('should pass', () => {
      expect(runEach(extractOutputPages, [extract('Page[]'), extract('native.Page[]')])).to.deep.equal([]);
    });
  });
});
