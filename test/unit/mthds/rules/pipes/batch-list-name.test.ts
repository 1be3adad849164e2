import { expect } from 'chai';
import { batchListName } from '../../../../../shared/mthds/rules/pipes/batch-list-name.js';
import { bundle, runRule } from '../harness.js';

const batch = (inputs: string, list: string, item: string) =>
  bundle(
    'flow',
    `[pipe.each]\ntype = "PipeBatch"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text[]"\nbranch_pipe_code = "a"\ninput_list_name = "${list}"\ninput_item_name = "${item}"`,
  );

describe('S4-batch-list-name', () => {
  describe('when input_list_name is not a declared input', () => {
    it('should report it', () => {
      expect(runRule(batchListName, batch('{ pages = "Page[]" }', 'documents', 'document'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'each', field 'input_list_name': 'documents' must be one of the declared inputs (declared: pages).",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'each',
          domain_code: 'flow',
          field_path: 'pipe.each.input_list_name',
          field_name: 'input_list_name',
        },
      ]);
    });
  });

  describe('when it is declared', () => {
    it('should pass', () => {
      expect(
        runRule(batchListName, batch('{ documents = "Document[]", pages = "Page[]" }', 'documents', 'document')),
      ).to.deep.equal([]);
    });
  });
});
