import { expect } from 'chai';
import { batchItemName } from '../../../../../shared/mthds/rules/pipes/batch-item-name.js';
import { bundle, runEach, runRule } from '../harness.js';

const batch = (item: string, domain = 'flow') =>
  bundle(
    domain,
    `[pipe.each]\ntype = "PipeBatch"\ndescription = "d"\ninputs = { documents = "Document[]", pages = "Page[]" }\noutput = "Text[]"\nbranch_pipe_code = "a"\ninput_list_name = "documents"\ninput_item_name = "${item}"`,
  );

describe('S4-batch-item-name', () => {
  describe('when input_item_name is blank, the list name or a declared input', () => {
    it('should report each', () => {
      expect(runRule(batchItemName, batch('documents'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'each', field 'input_item_name': 'documents' must differ from input_list_name.",
          error_type: 'batch_item_name_collision',
          source: 'bundle-1.mthds',
          pipe_code: 'each',
          domain_code: 'flow',
          field_path: 'pipe.each.input_item_name',
          field_name: 'input_item_name',
        },
      ]);
      expect(
        runEach(batchItemName, [batch(' '), batch('pages', 'flow_two')]).map((item) => item.message),
      ).to.deep.equal([
        "Pipe 'each', field 'input_item_name': must not be empty.",
        "Pipe 'each', field 'input_item_name': 'pages' must not also be a declared input.",
      ]);
    });
  });

  describe('when it is a fresh name', () => {
    it('should pass', () => {
      expect(runRule(batchItemName, batch('document'))).to.deep.equal([]);
    });
  });
});
