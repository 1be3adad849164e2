import { expect } from 'chai';
import { docGenOutput } from '../../../../../shared/mthds/rules/pipes/doc-gen-output.js';
import { runRule } from '../harness.js';
import { docGenBundle, PRINT_ITEM } from './doc-gen-fixtures.js';

describe('S4-doc-gen-output', () => {
  describe('when the output is not Document-compatible', () => {
    it('should report PipeDocGenFactoryError as inadequate_output_concept', () => {
      expect(runRule(docGenOutput, docGenBundle({ format: '"pdf"', output: '"Text"' }))).to.deep.equal([
        {
          category: 'pipe_validation',
          error_type: 'inadequate_output_concept',
          message:
            "Pipe 'print': a PipeDocGen outputs a Document (or a concept refining it), not 'Text' (PipeDocGenFactoryError).",
          ...PRINT_ITEM,
          field_path: 'pipe.print.output',
          field_name: 'output',
        },
      ]);
    });

    it('should refuse Anything, which is compatible with everything but not strictly a Document', () => {
      expect(runRule(docGenOutput, docGenBundle({ format: '"pdf"', output: '"Anything"' }))).to.have.length(1);
    });
  });

  describe('when the output is Document or refines it', () => {
    it('should pass', () => {
      expect(runRule(docGenOutput, docGenBundle({ format: '"pdf"' }))).to.deep.equal([]);
      expect(runRule(docGenOutput, docGenBundle({ format: '"pdf"', output: '"Receipt"' }))).to.deep.equal([]);
    });
  });
});
