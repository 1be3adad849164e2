import { expect } from 'chai';
import { docGenOutputSingle } from '../../../../../shared/mthds/rules/pipes/doc-gen-output-single.js';
import { runRule } from '../harness.js';
import { docGenBundle, PRINT_ITEM } from './doc-gen-fixtures.js';

describe('S4-doc-gen-output-single', () => {
  describe('when the output is a list', () => {
    it('should report inadequate_output_multiplicity', () => {
      expect(runRule(docGenOutputSingle, docGenBundle({ format: '"docx"', output: '"Document[]"' }))).to.deep.equal([
        {
          category: 'pipe_validation',
          error_type: 'inadequate_output_multiplicity',
          message:
            "Pipe 'print': a PipeDocGen prints one file; its output 'Document[]' must not be a list (write \"Document\").",
          ...PRINT_ITEM,
          field_path: 'pipe.print.output',
          field_name: 'output',
        },
      ]);
      expect(runRule(docGenOutputSingle, docGenBundle({ format: '"docx"', output: '"Document[2]"' }))).to.have.length(
        1,
      );
    });
  });

  describe('when the output is one document', () => {
    it('should pass', () => {
      expect(runRule(docGenOutputSingle, docGenBundle({ format: '"docx"' }))).to.deep.equal([]);
    });
  });
});
