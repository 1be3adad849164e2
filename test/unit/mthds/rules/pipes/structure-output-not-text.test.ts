import { expect } from 'chai';
import { structureOutputNotText } from '../../../../../shared/mthds/rules/pipes/structure-output-not-text.js';
import { bundle, runRule } from '../harness.js';

const structure = (output: string) =>
  bundle(
    'hours',
    `[concept.Summary]\ndescription = "A summary (text)"\n\n[concept.Hours]\ndescription = "d"\n[concept.Hours.structure]\nopens = "Opening time"\n\n[pipe.read_hours]\ntype = "PipeStructure"\ndescription = "d"\ninputs = { notice = "Text" }\noutput = "${output}"`,
  );

describe('S4-structure-output-not-text', () => {
  describe('when the output is Text', () => {
    it('should report it', () => {
      expect(runRule(structureOutputNotText, structure('Text'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'read_hours': a PipeStructure outputs a structured concept, not the text concept 'Text'; use a PipeLLM for text.",
          error_type: 'inadequate_output_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'read_hours',
          domain_code: 'hours',
          field_path: 'pipe.read_hours.output',
          field_name: 'output',
        },
      ]);
    });
  });

  describe('when the output is a description-only concept', () => {
    it('should report it', () => {
      expect(runRule(structureOutputNotText, structure('Summary[]')).map((item) => item.message)).to.deep.equal([
        "Pipe 'read_hours': a PipeStructure outputs a structured concept, not the text concept 'Summary[]'; use a PipeLLM for text.",
      ]);
    });
  });

  describe('when the output is structured, single or a list', () => {
    it('should pass', () => {
      expect(runRule(structureOutputNotText, structure('Hours'))).to.deep.equal([]);
      expect(runRule(structureOutputNotText, structure('Hours[3]'))).to.deep.equal([]);
    });
  });
});
