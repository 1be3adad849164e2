import { expect } from 'chai';
import { structureSingleInput } from '../../../../../shared/mthds/rules/pipes/structure-single-input.js';
import { bundle, runRule } from '../harness.js';

const structure = (inputs: string) =>
  bundle(
    'hours',
    `[concept.Hours]\ndescription = "d"\n[concept.Hours.structure]\nopens = "Opening time"\n\n[pipe.read_hours]\ntype = "PipeStructure"\ndescription = "d"\ninputs = ${inputs}\noutput = "Hours"`,
  );

describe('S4-structure-single-input', () => {
  describe('when a PipeStructure has two inputs', () => {
    it('should report it', () => {
      expect(runRule(structureSingleInput, structure('{ a = "Text", b = "Text" }'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'read_hours': a PipeStructure takes exactly one input (the Text to structure), not 2.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'read_hours',
          domain_code: 'hours',
          field_path: 'pipe.read_hours.inputs',
          field_name: 'inputs',
        },
      ]);
    });
  });

  describe('when it has none', () => {
    it('should report it', () => {
      expect(runRule(structureSingleInput, structure('{}')).map((item) => item.message)).to.deep.equal([
        "Pipe 'read_hours': a PipeStructure takes exactly one input (the Text to structure), not 0.",
      ]);
    });
  });

  describe('when it has one', () => {
    it('should pass', () => {
      expect(runRule(structureSingleInput, structure('{ notice = "Text" }'))).to.deep.equal([]);
    });
  });
});
