import { expect } from 'chai';
import { sequenceOutput } from '../../../../../shared/mthds/rules/data-flow/sequence-output.js';
import { bundle, runEach, runRule } from '../harness.js';

const CONCEPTS =
  '[concept.Summary]\ndescription = "s"\nrefines = "Text"\n[concept.Score]\ndescription = "n"\n[concept.Score.structure]\nvalue = { type = "integer", description = "v" }';
const func = (code: string, output: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { item = "Text" }\noutput = "${output}"\nfunction_name = "f"`;
const sequence = (output: string, lastOutput: string, step = '{ pipe = "last" }') =>
  bundle(
    'flow',
    `${CONCEPTS}\n[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { item = "Text", items = "Text[]" }\noutput = "${output}"\nsteps = [${step}]\n${func('last', lastOutput)}`,
  );

describe('V-O1 (sequence output)', () => {
  describe('when the last step produces a concept the sequence output does not accept', () => {
    it('should report it with the unsafe fix', () => {
      expect(runRule(sequenceOutput, sequence('Summary', 'Score'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'run' declares output 'Summary', but its last step 'last' produces 'Score', which is neither that concept nor a refinement of it. Set output = \"Score\" or change the last step.",
          error_type: 'inadequate_output_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'run',
          domain_code: 'flow',
          field_path: 'pipe.run.output',
          field_name: 'output',
          suggested_fix: {
            fix_code: 'match-sequence-output',
            description: 'Set the output of \'run\' to "Score", what its last step produces.',
            safety: 'unsafe',
            source: 'bundle-1.mthds',
            ops: [{ kind: 'set_key', table_path: ['pipe', 'run'], key: 'output', value: 'Score' }],
          },
        },
      ]);
    });

    it('should describe an inline batch step as producing a list', () => {
      const items = runRule(
        sequenceOutput,
        sequence('Summary[]', 'Score', '{ pipe = "last", batch_over = "items", batch_as = "item" }'),
      );
      expect(items.map((item) => item.suggested_fix?.ops)).to.deep.equal([
        [{ kind: 'set_key', table_path: ['pipe', 'run'], key: 'output', value: 'Score[]' }],
      ]);
    });
  });

  describe('when the output is the produced concept, an ancestor, or Anything', () => {
    it('should pass', () => {
      expect(
        runEach(sequenceOutput, [
          sequence('Summary', 'Summary'),
          sequence('Text', 'Summary'),
          sequence('Anything', 'Score'),
          sequence('Score', 'Anything'),
        ]),
      ).to.deep.equal([]);
    });
  });

  describe('when the last step is a binding step', () => {
    const bound = (output: string) =>
      bundle(
        'flow',
        `${CONCEPTS}\n[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { score = "Score" }\noutput = "${output}"\nsteps = [{ from = "score.value", result = "value" }]`,
      );

    it('should check the declared output against the derived concept', () => {
      expect(runRule(sequenceOutput, bound('Summary'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'run' declares output 'Summary', but its last step 'score.value' produces 'Number', which is neither that concept nor a refinement of it. Set output = \"Number\" or change the last step.",
          error_type: 'inadequate_output_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'run',
          domain_code: 'flow',
          field_path: 'pipe.run.output',
          field_name: 'output',
          suggested_fix: {
            fix_code: 'match-sequence-output',
            description: 'Set the output of \'run\' to "Number", what its last step produces.',
            safety: 'unsafe',
            source: 'bundle-1.mthds',
            ops: [{ kind: 'set_key', table_path: ['pipe', 'run'], key: 'output', value: 'Number' }],
          },
        },
      ]);
      expect(runRule(sequenceOutput, bound('Number'))).to.deep.equal([]);
    });
  });
});
