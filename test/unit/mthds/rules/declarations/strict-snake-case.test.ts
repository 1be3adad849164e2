import { expect } from 'chai';
import { strictSnakeCase } from '../../../../../shared/mthds/rules/declarations/strict-snake-case.js';
import { bundle, runRule } from '../harness.js';

const pipe = (code: string, inputs: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nfunction_name = "f"`;

describe('S2-strict-snake-case', () => {
  describe('when a pipe code or an input name has a double or trailing underscore', () => {
    it('should warn', () => {
      const items = runRule(
        strictSnakeCase,
        bundle('docs', pipe('read__all', '{ doc_ = "Document", "page.view__x" = "Image" }')),
      );
      expect(strictSnakeCase.severity).to.equal('warning');
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message:
          "Pipe 'read__all': pipe code 'read__all' has a double, leading or trailing underscore; the reference SDKs expect words joined by single underscores.",
        error_type: 'invalid_pipe_code_syntax',
        source: 'bundle-1.mthds',
        domain_code: 'docs',
        field_path: 'pipe.read__all',
        pipe_code: 'read__all',
      });
      expect(items.slice(1).map((item) => item.field_path)).to.deep.equal([
        'pipe.read__all.inputs.doc_',
        'pipe.read__all.inputs.page.view__x',
      ]);
    });
  });

  describe('when names use single underscores (or are already invalid)', () => {
    it('should pass', () => {
      expect(
        runRule(
          strictSnakeCase,
          bundle(
            'docs',
            pipe('read_all2', '{ doc = "Document", "page_content.page_view" = "Image", BadName = "Text" }'),
          ),
        ),
      ).to.deep.equal([]);
    });
  });
});
