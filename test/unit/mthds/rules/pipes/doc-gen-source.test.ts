import { expect } from 'chai';
import { docGenSource } from '../../../../../shared/mthds/rules/pipes/doc-gen-source.js';
import { runRule } from '../harness.js';
import { docGenBundle, PRINT_ITEM } from './doc-gen-fixtures.js';

const item = (message: string, field: string) => ({
  category: 'blueprint_validation',
  error_type: 'invalid_pipe_field',
  message,
  ...PRINT_ITEM,
  field_path: `pipe.print.${field}`,
  field_name: field,
});

describe('S4-doc-gen-source', () => {
  describe('when a template is set on another format than pdf', () => {
    it('should report it', () => {
      expect(runRule(docGenSource, docGenBundle({ format: '"xlsx"', template: '"<p>x</p>"' }))).to.deep.equal([
        item(
          "Pipe 'print': an HTML template prints a pdf only; a xlsx PipeDocGen prints its layout or a template_file (.xlsx).",
          'template',
        ),
      ]);
    });
  });

  describe('when both template and template_file are set', () => {
    it('should report it', () => {
      const text = docGenBundle({ format: '"pdf"', template: '"<p>x</p>"', template_file: '"t.html"' });
      expect(runRule(docGenSource, text)).to.deep.equal([
        item("Pipe 'print': a PipeDocGen sets at most one of template and template_file, not both.", 'template_file'),
      ]);
    });
  });

  describe('when a pptx has no template_file', () => {
    it('should report it', () => {
      expect(runRule(docGenSource, docGenBundle({ format: '"pptx"' }))).to.deep.equal([
        item(
          "Pipe 'print': a pptx PipeDocGen needs a template_file (a .pptx of the bundle); pptx has no layout.",
          'template_file',
        ),
      ]);
    });
  });

  describe('when the source fields fit the format', () => {
    it('should pass', () => {
      const cases: Record<string, string>[] = [
        { format: '"pdf"' },
        { format: '"pdf"', template: '"<p>x</p>"' },
        { format: '"pdf"', template_file: '"t.html"' },
        { format: '"xlsx"' },
        { format: '"docx"', template_file: '"t.docx"' },
        { format: '"pptx"', template_file: '"t.pptx"' },
      ];
      for (const fields of cases)
        expect(runRule(docGenSource, docGenBundle(fields)), JSON.stringify(fields)).to.deep.equal([]);
    });
  });
});
