import { expect } from 'chai';
import { dottedInputNames } from '../../../../../shared/mthds/rules/declarations/dotted-input-names.js';
import { bundle, runRule } from '../harness.js';

const TEXT = bundle(
  'pages',
  [
    '[pipe.describe]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { "page.page_view" = "Image" }\noutput = "Text"\nprompt = "Describe $page.page_view"',
    '[pipe.each]\ntype = "PipeBatch"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "Text[]"\nbranch_pipe_code = "describe"\ninput_list_name = "doc.pages"\ninput_item_name = "page"',
  ].join('\n'),
);

describe('S2-dotted-input-names', () => {
  describe('when an input name or a batch list name is dotted, in strict mode', () => {
    it('should refuse each with invalid_input_name and the remedy', () => {
      const items = runRule(dottedInputNames, TEXT, 'strict');
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message:
          "Pipe 'describe', input 'page.page_view': dotted input names are obsolete; declare the root input 'page' and read $page.page_view in the template, or bind the field with a binding step.",
        error_type: 'invalid_input_name',
        source: 'bundle-1.mthds',
        domain_code: 'pages',
        field_path: 'pipe.describe.inputs.page.page_view',
        field_name: 'page.page_view',
        pipe_code: 'describe',
      });
      expect(items.slice(1).map((item) => [item.pipe_code, item.field_path, item.message])).to.deep.equal([
        [
          'each',
          'pipe.each.input_list_name',
          "Pipe 'each', input_list_name 'doc.pages': dotted input names are obsolete; declare the root input 'doc' and read $doc.pages in the template, or bind the field with a binding step.",
        ],
      ]);
    });
  });

  describe('when the same bundle loads in compat mode (0.16 has no invalid_input_name for them)', () => {
    it('should pass', () => {
      expect(runRule(dottedInputNames, TEXT, 'compat')).to.deep.equal([]);
    });
  });
});
