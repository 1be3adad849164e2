import { expect } from 'chai';
import { optionalOutputRequired } from '../../../../../shared/mthds/rules/data-flow/optional-output-required.js';
import { bundle, runRule } from '../harness.js';

const condition = (output: string, outcomes: string, fallback: string) =>
  bundle(
    'triage',
    `[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { level = "Text" }\noutput = "${output}"\nexpression = "level"\noutcomes = ${outcomes}\ndefault_outcome = "${fallback}"\n\n[pipe.answer]\ntype = "PipeCompose"\ndescription = "d"\ninputs = { level = "Text" }\noutput = "Text"\ntemplate = "{{ level }}"`,
  );

describe('S5b-optional-output-required', () => {
  describe('when no outcome continues, or the output is declared `?`', () => {
    it('should pass', () => {
      expect(runRule(optionalOutputRequired, condition('Text', '{ high = "answer" }', 'fail'))).to.deep.equal([]);
      expect(runRule(optionalOutputRequired, condition('Text?', '{ high = "answer" }', 'continue'))).to.deep.equal([]);
    });
  });

  describe('when an outcome or the default continues and the output is plain', () => {
    it('should refuse the output, naming where continue is reached', () => {
      expect(runRule(optionalOutputRequired, condition('Text', '{ low = "continue" }', 'answer'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'route' can end on the 'continue' outcome (outcome 'low'), which produces no value, but its output 'Text' is not optional. Declare the output 'Text?'.",
          error_type: 'optional_output_required',
          source: 'bundle-1.mthds',
          pipe_code: 'route',
          domain_code: 'triage',
          field_path: 'pipe.route.output',
          field_name: 'output',
        },
      ]);
      const fallback = runRule(optionalOutputRequired, condition('Text', '{ high = "answer" }', 'continue'));
      expect(fallback.map((item) => item.message)).to.deep.equal([
        "Pipe 'route' can end on the 'continue' outcome (default_outcome), which produces no value, but its output 'Text' is not optional. Declare the output 'Text?'.",
      ]);
    });
  });
});
