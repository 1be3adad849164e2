import { expect } from 'chai';
import { docGenFieldPaths } from '../../../../../shared/mthds/rules/pipes/doc-gen-field-paths.js';
import { runRule } from '../harness.js';
import { docGenBundle, PRINT_ITEM } from './doc-gen-fixtures.js';

const template = (text: string, extra: Record<string, string> = {}) =>
  runRule(docGenFieldPaths, docGenBundle({ format: '"pdf"', template: `'''${text}'''`, ...extra }));

describe('S4-doc-gen-field-paths', () => {
  describe('when a template reads a field the input concept lacks', () => {
    it('should report the path, the concept and its fields', () => {
      expect(template('{{ invoice.customer.nmae }}')).to.deep.equal([
        {
          category: 'pipe_validation',
          error_type: 'input_stuff_spec_mismatch',
          message:
            "Pipe 'print', template: 'invoice.customer.nmae' reads 'nmae', which concept 'billing.Customer' does not have (fields: name).",
          ...PRINT_ITEM,
          field_path: 'pipe.print.template',
          field_name: 'template',
          variable_names: ['invoice.customer.nmae'],
        },
      ]);
    });

    it('should check the filename too', () => {
      const items = runRule(docGenFieldPaths, docGenBundle({ format: '"xlsx"', filename: '"{{ invoice.numbr }}"' }));
      expect(items.map((item) => item.field_path)).to.deep.equal(['pipe.print.filename']);
    });
  });

  describe('when the paths exist or cannot be walked statically', () => {
    it('should pass', () => {
      expect(
        template(
          '{{ invoice.number }} {{ invoice.customer.name }} {% for line in invoice.lines %}{{ line.label }}{% endfor %} {{ invoice.number.upper() }} {{ invoice._stuff_name }}',
        ),
      ).to.deep.equal([]);
      expect(
        template('{{ note.text }} {{ note.anything }}', { inputs: '{ invoice = "Invoice", note = "Text" }' }),
      ).to.deep.equal([]);
      expect(template('{{ invoices.whatever }}', { inputs: '{ invoices = "Invoice[]" }' })).to.deep.equal([]);
    });
  });
});
