import { expect } from 'chai';
import { docGenTemplateFilePath } from '../../../../../shared/mthds/rules/pipes/doc-gen-template-file-path.js';
import { runRule } from '../harness.js';
import { docGenBundle, PRINT_ITEM } from './doc-gen-fixtures.js';

const messages = (format: string, path: string) =>
  runRule(docGenTemplateFilePath, docGenBundle({ format: `"${format}"`, template_file: `"${path}"` })).map(
    (item) => item.message,
  );

describe('S4-doc-gen-template-file-path', () => {
  describe('when the path leaves the bundle directory', () => {
    it('should report it with its field', () => {
      expect(
        runRule(docGenTemplateFilePath, docGenBundle({ format: '"docx"', template_file: '"a/../../t.docx"' })),
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          error_type: 'invalid_pipe_field',
          message:
            "Pipe 'print': template_file 'a/../../t.docx' leaves the bundle's directory ('..'); name a file inside it.",
          ...PRINT_ITEM,
          field_path: 'pipe.print.template_file',
          field_name: 'template_file',
        },
      ]);
    });
  });

  describe('when the path is absolute, empty or has the wrong extension', () => {
    it('should report each', () => {
      expect(messages('docx', '/etc/t.docx')).to.deep.equal([
        "Pipe 'print': template_file '/etc/t.docx' is not a relative path with / separators.",
      ]);
      expect(messages('xlsx', 'C:/t.xlsx')).to.have.length(1);
      expect(messages('xlsx', ' ')).to.deep.equal(["Pipe 'print': template_file ' ' is empty."]);
      expect(messages('pdf', 'templates/invoice.pdf')).to.deep.equal([
        "Pipe 'print': template_file 'templates/invoice.pdf' does not end with .html, the extension its format needs.",
      ]);
    });
  });

  describe('when the path is relative, inside, with its extension', () => {
    it('should pass', () => {
      expect(messages('pdf', 'templates/invoice.html')).to.deep.equal([]);
      expect(messages('xlsx', './Book.XLSX')).to.deep.equal([]);
      expect(messages('pptx', 'deck.pptx')).to.deep.equal([]);
    });
  });
});
