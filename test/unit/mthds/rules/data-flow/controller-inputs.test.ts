import { expect } from 'chai';
import { controllerInputs } from '../../../../../shared/mthds/rules/data-flow/controller-inputs.js';
import { bundle, runEach, runRule } from '../harness.js';

const func = (code: string, inputs: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nfunction_name = "f"`;
const parallel = (inputs: string) =>
  bundle(
    'flow',
    `[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nadd_each_output = true\nbranches = [{ pipe = "a", result = "x" }, { pipe = "b", result = "y" }]\n${func('a', '{ doc = "Text" }')}\n${func('b', '{ doc = "Text", tone = "Text" }')}`,
  );
const condition = (inputs: string) =>
  bundle(
    'flow',
    `[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nexpression = "verdict"\noutcomes = { yes = "a", no = "fail" }\ndefault_outcome = "b"\n${func('a', '{ doc = "Text" }')}\n${func('b', '{ tone = "Text" }')}`,
  );
const batch = (inputs: string) =>
  bundle(
    'flow',
    `[pipe.each]\ntype = "PipeBatch"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text[]"\nbranch_pipe_code = "a"\ninput_list_name = "docs"\ninput_item_name = "doc"\n${func('a', '{ doc = "Text", target = "Text" }')}`,
  );

describe('V-C2 (parallel, condition and batch inputs)', () => {
  describe('when a branch of a PipeParallel needs an undeclared input', () => {
    it('should report it', () => {
      expect(runRule(controllerInputs, parallel('{ doc = "Text" }'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'fan': its branches need 'tone', which is not a declared input. Add it to the inputs of 'fan'.",
          error_type: 'missing_input_variable',
          source: 'bundle-1.mthds',
          pipe_code: 'fan',
          domain_code: 'flow',
          field_path: 'pipe.fan.inputs',
          field_name: 'inputs',
          variable_names: ['tone'],
        },
      ]);
    });
  });

  describe('when an outcome pipe of a PipeCondition needs an undeclared input', () => {
    it('should report it, the default outcome included', () => {
      expect(
        runRule(controllerInputs, condition('{ verdict = "Text", doc = "Text" }')).map((item) => [
          item.pipe_code,
          item.variable_names,
        ]),
      ).to.deep.equal([['route', ['tone']]]);
    });
  });

  describe('when the branch pipe of a PipeBatch needs an input besides the item', () => {
    it('should report it', () => {
      expect(
        runRule(controllerInputs, batch('{ docs = "Text[]" }')).map((item) => [item.pipe_code, item.variable_names]),
      ).to.deep.equal([['each', ['target']]]);
    });
  });

  describe('when each controller declares what its sub-pipes need', () => {
    it('should pass', () => {
      expect(
        runEach(controllerInputs, [
          parallel('{ doc = "Text", tone = "Text" }'),
          condition('{ verdict = "Text", doc = "Text", tone = "Text" }'),
          batch('{ docs = "Text[]", target = "Text" }'),
        ]),
      ).to.deep.equal([]);
    });
  });
});
