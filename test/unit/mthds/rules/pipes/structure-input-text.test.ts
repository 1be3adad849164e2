import { expect } from 'chai';
import { structureInputText } from '../../../../../shared/mthds/rules/pipes/structure-input-text.js';
import { bundle, runRule } from '../harness.js';

const structure = (input: string) =>
  bundle(
    'hours',
    `[concept.Notice]\ndescription = "A door notice"\nrefines = "Text"\n\n[concept.Hours]\ndescription = "d"\n[concept.Hours.structure]\nopens = "Opening time"\n\n[pipe.read_hours]\ntype = "PipeStructure"\ndescription = "d"\ninputs = { notice = "${input}" }\noutput = "Hours"`,
  );

describe('S4-structure-input-text', () => {
  describe('when the input is an Image', () => {
    it('should report it', () => {
      expect(runRule(structureInputText, structure('Image'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'read_hours': a PipeStructure structures a Text (or a concept refining it), but input 'notice' is 'Image'.",
          error_type: 'input_stuff_spec_mismatch',
          source: 'bundle-1.mthds',
          pipe_code: 'read_hours',
          domain_code: 'hours',
          field_path: 'pipe.read_hours.inputs.notice',
          field_name: 'notice',
        },
      ]);
    });
  });

  describe('when the input is a structured concept', () => {
    it('should report it', () => {
      expect(runRule(structureInputText, structure('Hours')).map((item) => item.error_type)).to.deep.equal([
        'input_stuff_spec_mismatch',
      ]);
    });
  });

  describe('when the input is Text, a refinement of it, or a description-only concept', () => {
    it('should pass', () => {
      expect(runRule(structureInputText, structure('Text'))).to.deep.equal([]);
      expect(runRule(structureInputText, structure('Notice'))).to.deep.equal([]);
    });
  });
});
