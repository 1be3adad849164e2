import { expect } from 'chai';
import { multiplicityRange } from '../../../../../shared/mthds/rules/declarations/multiplicity-range.js';
import { bundle, runRule } from '../harness.js';

const llm = (code: string, inputs: string, output: string) =>
  `[pipe.${code}]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { ${inputs} }\noutput = "${output}"\nprompt = "p"\n`;

const item = (pipe: string, field: string, fieldName: string, written: string) => ({
  category: 'blueprint_validation',
  message: `Pipe '${pipe}', ${field}: '${written}' asks for a count outside 1 to 1,000 (MAX_MULTIPLICITY). Ask for at most 1,000 items, or for a variable list ('[]').`,
  error_type: 'multiplicity_out_of_range',
  source: 'bundle-1.mthds',
  pipe_code: pipe,
  domain_code: 'lists',
  field_path: `pipe.${pipe}.${field}`,
  field_name: fieldName,
});

describe('S2-multiplicity-range', () => {
  describe('when a pipe writes a count over MAX_MULTIPLICITY in its inputs or output', () => {
    it('should report each, positioned at its field', () => {
      const text = bundle('lists', llm('many', 'pages = "Text[1001]", one = "Text"', 'Text[99999999999999999999]'));
      expect(runRule(multiplicityRange, text)).to.deep.equal([
        item('many', 'inputs.pages', 'pages', 'Text[1001]'),
        item('many', 'output', 'output', 'Text[99999999999999999999]'),
      ]);
    });
  });

  describe('when a step or branch sets nb_output out of range', () => {
    it('should report a zero, a negative and a count over the limit', () => {
      const text = bundle(
        'lists',
        `${llm('leaf', 'topic = "Text"', 'Text')}
[pipe.seq]
type = "PipeSequence"
description = "d"
inputs = { topic = "Text" }
output = "Text[]"
steps = [
  { pipe = "leaf", result = "a", nb_output = 0 },
  { pipe = "leaf", result = "b", nb_output = -3 },
  { pipe = "leaf", result = "c", nb_output = 1001 },
  { pipe = "leaf", result = "d", nb_output = 1000 },
]
`,
      );
      expect(runRule(multiplicityRange, text)).to.deep.equal([
        item('seq', 'steps[0].nb_output', 'nb_output', 'nb_output = 0'),
        item('seq', 'steps[1].nb_output', 'nb_output', 'nb_output = -3'),
        item('seq', 'steps[2].nb_output', 'nb_output', 'nb_output = 1001'),
      ]);
    });
  });

  describe('when every count is within 1 to MAX_MULTIPLICITY', () => {
    it('should pass', () => {
      expect(runRule(multiplicityRange, bundle('lists', llm('many', 'pages = "Text[1000]"', 'Text[5]')))).to.deep.equal(
        [],
      );
    });
  });
});
