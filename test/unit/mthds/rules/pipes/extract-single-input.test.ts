import { expect } from 'chai';
import { extractSingleInput } from '../../../../../shared/mthds/rules/pipes/extract-single-input.js';
import { bundle, runRule } from '../harness.js';

const extract = (inputs: string) =>
  bundle('docs', `[pipe.read]\ntype = "PipeExtract"\ndescription = "d"\ninputs = ${inputs}\noutput = "Page[]"`);

describe('S4-extract-single-input', () => {
  describe('when a PipeExtract has two inputs', () => {
    it('should report it', () => {
      expect(runRule(extractSingleInput, extract('{ a = "Document", b = "Document" }'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'read': a PipeExtract takes exactly one input (a Document or an Image), not 2.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'read',
          domain_code: 'docs',
          field_path: 'pipe.read.inputs',
          field_name: 'inputs',
        },
      ]);
    });
  });

  describe('when it has one', () => {
    it('should pass', () => {
      expect(runRule(extractSingleInput, extract('{ document = "Document" }'))).to.deep.equal([]);
    });
  });
});
