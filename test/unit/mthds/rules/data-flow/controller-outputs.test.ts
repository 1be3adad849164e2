import { expect } from 'chai';
import { controllerOutputs } from '../../../../../shared/mthds/rules/data-flow/controller-outputs.js';
import { bundle, runEach, runRule } from '../harness.js';

const CONCEPTS =
  '[concept.Summary]\ndescription = "s"\nrefines = "Text"\n[concept.Score]\ndescription = "n"\n[concept.Score.structure]\nvalue = { type = "integer", description = "v" }';
const func = (code: string, output: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { item = "Text" }\noutput = "${output}"\nfunction_name = "f"`;
const batch = (output: string, branchOutput: string) =>
  bundle(
    'flow',
    `${CONCEPTS}\n[pipe.each]\ntype = "PipeBatch"\ndescription = "d"\ninputs = { items = "Text[]" }\noutput = "${output}"\nbranch_pipe_code = "one"\ninput_list_name = "items"\ninput_item_name = "item"\n${func('one', branchOutput)}`,
  );
const condition = (output: string) =>
  bundle(
    'flow',
    `${CONCEPTS}\n[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { item = "Text" }\noutput = "${output}"\nexpression = "item"\noutcomes = { a = "short", b = "fail" }\ndefault_outcome = "rate"\n${func('short', 'Summary')}\n${func('rate', 'Score')}`,
  );

describe('V-O2 (batch and condition outputs)', () => {
  describe('when a batch branch produces a concept the batch output does not accept', () => {
    it('should report it', () => {
      expect(runRule(controllerOutputs, batch('Summary[]', 'Score'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'each' declares output 'Summary[]', but its branch pipe 'one' produces 'Score', which is neither that concept nor a refinement of it.",
          error_type: 'inadequate_output_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'each',
          domain_code: 'flow',
          field_path: 'pipe.each.output',
          field_name: 'output',
        },
      ]);
    });
  });

  describe('when an outcome pipe produces a concept the condition output does not accept', () => {
    it('should report each such outcome, the default included', () => {
      expect(runRule(controllerOutputs, condition('Text')).map((item) => item.message)).to.deep.equal([
        "Pipe 'route' declares output 'Text', but its outcome pipe 'rate' produces 'Score', which is neither that concept nor a refinement of it.",
      ]);
    });
  });

  describe('when outputs are compatible or Anything', () => {
    it('should pass', () => {
      expect(
        runEach(controllerOutputs, [batch('Text[]', 'Summary'), batch('Score[]', 'Anything'), condition('Anything')]),
      ).to.deep.equal([]);
    });
  });
});
