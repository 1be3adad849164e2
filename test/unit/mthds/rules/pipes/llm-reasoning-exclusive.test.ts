import { expect } from 'chai';
import { llmReasoningExclusive } from '../../../../../shared/mthds/rules/pipes/llm-reasoning-exclusive.js';
import { bundle, runRule } from '../harness.js';

const llm = (model: string) =>
  bundle(
    'think',
    `[pipe.solve]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { q = "Text" }\noutput = "Text"\nprompt = "$q"\n${model}`,
  );

describe('S4-llm-reasoning-exclusive', () => {
  describe('when an inline setting sets reasoning_effort and reasoning_budget', () => {
    it('should report the field', () => {
      expect(
        runRule(
          llmReasoningExclusive,
          llm(
            'model_to_structure = { model = "m", temperature = 0.1, reasoning_effort = "high", reasoning_budget = 2000 }',
          ),
        ),
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'solve', field 'model_to_structure': set reasoning_effort or reasoning_budget, not both.",
          error_type: 'invalid_pipe_field',
          source: 'bundle-1.mthds',
          pipe_code: 'solve',
          domain_code: 'think',
          field_path: 'pipe.solve.model_to_structure',
          field_name: 'model_to_structure',
        },
      ]);
    });
  });

  describe('when one of them is set, or the model is a reference', () => {
    it('should pass', () => {
      expect(
        runRule(llmReasoningExclusive, llm('model = { model = "m", temperature = 0.1, reasoning_effort = "high" }')),
      ).to.deep.equal([]);
      expect(runRule(llmReasoningExclusive, llm('model = "$deep-analysis"'))).to.deep.equal([]);
    });
  });
});
