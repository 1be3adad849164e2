import { expect } from 'chai';
import { composeMode } from '../../../../../shared/mthds/rules/pipes/compose-mode.js';
import { bundle, runEach, runRule } from '../harness.js';

const compose = (body: string) =>
  bundle(
    'reports',
    `[pipe.render]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { a = "Text" }\noutput = "Text"\n${body}`,
  );

describe('S4-compose-mode', () => {
  describe('when both template and construct, or neither, are set', () => {
    it('should report it', () => {
      expect(runRule(composeMode, compose('template = "$a"\nconstruct = { title = "x" }'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'render': a PipeCompose sets exactly one of template and construct (both are set).",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'render',
          domain_code: 'reports',
          field_path: 'pipe.render.construct',
          field_name: 'construct',
        },
      ]);
      expect(runRule(composeMode, compose('')).map((item) => [item.message, item.field_path])).to.deep.equal([
        [
          "Pipe 'render': a PipeCompose sets exactly one of template and construct (neither is set).",
          'pipe.render.template',
        ],
      ]);
    });
  });

  describe('when exactly one is set', () => {
    it('should pass', () => {
      expect(
        runEach(composeMode, [compose('template = "$a"'), compose('construct = { title = { from = "a" } }')]),
      ).to.deep.equal([]);
    });
  });
});
