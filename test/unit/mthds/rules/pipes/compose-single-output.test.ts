import { expect } from 'chai';
import { composeSingleOutput } from '../../../../../shared/mthds/rules/pipes/compose-single-output.js';
import { bundle, runRule } from '../harness.js';

const compose = (output: string) =>
  bundle(
    'reports',
    `[pipe.render]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "${output}"\ntemplate = "$a"`,
  );

describe('S4-compose-single-output', () => {
  describe('when the output has a multiplicity', () => {
    it('should report it', () => {
      expect(runRule(composeSingleOutput, compose('Text[]'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message: "Pipe 'render': a PipeCompose has a single output, without [] or [N] ('Text[]').",
          error_type: 'inadequate_output_multiplicity',
          source: 'bundle-1.mthds',
          pipe_code: 'render',
          domain_code: 'reports',
          field_path: 'pipe.render.output',
          field_name: 'output',
        },
      ]);
    });
  });

  describe('when the output is single', () => {
    it('should pass', () => {
      expect(runRule(composeSingleOutput, compose('Text'))).to.deep.equal([]);
    });
  });
});
