import { expect } from 'chai';
import { optionalForceRedundant } from '../../../../../shared/mthds/rules/data-flow/optional-force-redundant.js';
import { runRule } from '../harness.js';
import { briefFlow } from './optional-flow-fixtures.js';

const FORCED = (input: string) =>
  `[pipe.insist]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { ${input} = "Text!" }\noutput = "Text"\nprompt = "Use $${input}"`;

describe('S5b-optional-force-redundant', () => {
  describe('when the forced input may be absent where the pipe is called', () => {
    it('should pass', () => {
      const text = briefFlow('Text', ['{ pipe = "insist", result = "used" }'], FORCED('hint'));
      expect(runRule(optionalForceRedundant, text)).to.deep.equal([]);
    });
  });

  describe('when every caller feeds it a value that is always present', () => {
    it('should warn on the input', () => {
      const text = briefFlow('Text', ['{ pipe = "insist", result = "used" }'], FORCED('topic'));
      expect(runRule(optionalForceRedundant, text)).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'insist', input 'topic': the force marker '!' can never fire, since 'topic' is always present where 'insist' runs (brief.brief_flow). Remove the marker.",
          error_type: 'optional_force_redundant',
          source: 'bundle-1.mthds',
          pipe_code: 'insist',
          domain_code: 'brief',
          field_path: 'pipe.insist.inputs.topic',
          field_name: 'topic',
          variable_names: ['topic'],
        },
      ]);
    });
  });
});
