import { expect } from 'chai';
import { docGenEngine } from '../../../../../shared/mthds/rules/pipes/doc-gen-engine.js';
import { runRule } from '../harness.js';
import { docGenBundle, PRINT_ITEM } from './doc-gen-fixtures.js';

describe('S4-doc-gen-engine', () => {
  describe('when the model names an engine that does not print the pipe', () => {
    it('should report DocGenEngineMissingError on the model field', () => {
      expect(runRule(docGenEngine, docGenBundle({ format: '"pdf"', model: '"docxtpl-docx"' }))).to.deep.equal([
        {
          category: 'pipe_validation',
          error_type: 'invalid_pipe_field',
          message:
            "Pipe 'print': no doc_gen engine can print it: engine 'docxtemplater-docx' prints docx.template_file, not 'pdf.layout' (DocGenEngineMissingError).",
          ...PRINT_ITEM,
          field_path: 'pipe.print.model',
          field_name: 'model',
        },
      ]);
    });
  });

  describe('when the model names no engine, or a preset', () => {
    it('should report it', () => {
      expect(runRule(docGenEngine, docGenBundle({ format: '"xlsx"', model: '"@nowhere"' }))).to.have.length(1);
      expect(
        runRule(docGenEngine, docGenBundle({ format: '"xlsx"', model: '"$fast"' })).map((i) => i.message),
      ).to.deep.equal([
        "Pipe 'print': no doc_gen engine can print it: the doc_gen deck has no presets ('$fast' names one) (DocGenEngineMissingError).",
      ]);
    });
  });

  describe('when the deck default or a known engine or alias serves the pipe', () => {
    it('should pass', () => {
      const cases: Record<string, string>[] = [
        { format: '"pdf"' },
        { format: '"pdf"', template: '"<p/>"' },
        { format: '"xlsx"', template_file: '"b.xlsx"' },
        { format: '"docx"', model: '"docx-docx"' },
        { format: '"docx"', template_file: '"t.docx"', model: '"@docxtpl-docx"' },
        { format: '"pdf"', model: '"reportlab-pdf"' },
        { format: '"pptx"', template_file: '"t.pptx"', model: '"alias:python-pptx"' },
      ];
      for (const fields of cases)
        expect(runRule(docGenEngine, docGenBundle(fields)), JSON.stringify(fields)).to.deep.equal([]);
    });
  });

  describe('when the source fields are inconsistent', () => {
    it('should leave them to S4-doc-gen-source', () => {
      expect(runRule(docGenEngine, docGenBundle({ format: '"pptx"' }))).to.deep.equal([]);
      expect(runRule(docGenEngine, docGenBundle({ format: '"xlsx"', template: '"<p/>"' }))).to.deep.equal([]);
    });
  });
});
