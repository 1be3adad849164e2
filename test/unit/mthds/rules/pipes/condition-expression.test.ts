import { expect } from 'chai';
import { conditionExpression } from '../../../../../shared/mthds/rules/pipes/condition-expression.js';
import { bundle, runEach, runRule } from '../harness.js';

const condition = (expression: string) =>
  bundle(
    'flow',
    `[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { v = "Text" }\noutput = "Text"\n${expression}\noutcomes = { yes = "continue" }\ndefault_outcome = "fail"`,
  );

describe('S4-condition-expression', () => {
  describe('when both or neither expression forms are set', () => {
    it('should report it', () => {
      expect(
        runRule(conditionExpression, condition('expression = "v.text"\nexpression_template = "{{ v.text }}"')),
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'route': a PipeCondition sets exactly one of expression_template and expression (both are set).",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'route',
          domain_code: 'flow',
          field_path: 'pipe.route.expression_template',
          field_name: 'expression_template',
        },
      ]);
      expect(runRule(conditionExpression, condition('')).map((item) => item.message)).to.deep.equal([
        "Pipe 'route': a PipeCondition sets exactly one of expression_template and expression (neither is set).",
      ]);
    });
  });

  describe('when exactly one is set', () => {
    it('should pass', () => {
      expect(
        runEach(conditionExpression, [
          condition('expression = "v.text"'),
          condition('expression_template = "{{ v.text }}"'),
        ]),
      ).to.deep.equal([]);
    });
  });
});
