import { expect } from 'chai';
import { referenceSyntax } from '../../../../../shared/mthds/rules/references/reference-syntax.js';
import { bundle, runRule } from '../harness.js';

describe('S5-reference-syntax', () => {
  describe('when a step names a concept, an input a pipe, or refines carries a multiplicity', () => {
    it('should report each with the kind expected', () => {
      const text = bundle(
        'flow',
        [
          '[concept.Memo]\ndescription = "m"\nrefines = "Text[]"',
          '[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { doc = "document" }\noutput = "Text"\nsteps = [{ pipe = "Summarize" }]',
        ].join('\n'),
      );
      const items = runRule(referenceSyntax, text);
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message:
          "Pipe 'run', field 'steps[0].pipe': 'Summarize' is not a pipe reference (expected a snake_case pipe code, optionally 'domain.' in front).",
        error_type: 'invalid_reference',
        source: 'bundle-1.mthds',
        pipe_code: 'run',
        domain_code: 'flow',
        field_path: 'pipe.run.steps[0].pipe',
        field_name: 'pipe',
      });
      expect(items.slice(1).map((item) => [item.message, item.field_path])).to.deep.equal([
        [
          "Pipe 'run', field 'inputs.doc': 'document' is not a concept reference (expected a PascalCase code, optionally 'domain.' in front and [] or [N] after).",
          'pipe.run.inputs.doc',
        ],
        [
          "Concept 'Memo', field 'refines': 'Text[]' is not a concept reference (expected a PascalCase code, optionally 'domain.' in front, without [] or [N]).",
          'concept.Memo.refines',
        ],
      ]);
    });
  });

  describe('when references have the right kind', () => {
    it('should pass, special outcomes and cross-package refs included', () => {
      const text = bundle(
        'flow',
        [
          '[concept.Memo]\ndescription = "m"\nrefines = "native.Text"',
          '[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { doc = "Document[2]" }\noutput = "Text"\nsteps = [{ pipe = "docs->documents.extract_text_pages" }]',
          '[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\noutput = "Text"\nexpression = "x"\noutcomes = { a = "fail" }\ndefault_outcome = "continue"',
        ].join('\n'),
      );
      expect(runRule(referenceSyntax, text)).to.deep.equal([]);
    });
  });
});
