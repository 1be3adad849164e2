import { expect } from 'chai';
import { sequenceInputs } from '../../../../../shared/mthds/rules/data-flow/sequence-inputs.js';
import { bundle, runRule } from '../harness.js';

const func = (code: string, inputs: string, output = 'Text') =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = ${inputs}\noutput = "${output}"\nfunction_name = "f"`;
const sequence = (inputs: string, steps: string, ...pipes: string[]) =>
  bundle(
    'flow',
    [
      `[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nsteps = [${steps}]`,
      ...pipes,
    ].join('\n'),
  );

describe('V-C1 (sequence inputs)', () => {
  describe('when a step needs a name that is neither an input nor produced earlier', () => {
    it('should report the names with a fix that declares them', () => {
      const text = sequence(
        '{ doc = "Document" }',
        '{ pipe = "read", result = "pages" }, { pipe = "judge" }',
        func('read', '{ doc = "Document" }', 'Page[]'),
        func('judge', '{ pages = "Page[]", rubric = "Text", "city.name" = "Text" }'),
      );
      expect(runRule(sequenceInputs, text)).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'run': its steps need 'city', 'rubric', which are neither a declared input nor produced by an earlier step. Add them to the inputs of 'run'.",
          error_type: 'missing_input_variable',
          source: 'bundle-1.mthds',
          pipe_code: 'run',
          domain_code: 'flow',
          field_path: 'pipe.run.inputs',
          field_name: 'inputs',
          variable_names: ['city', 'rubric'],
          suggested_fix: {
            fix_code: 'sync-controller-inputs',
            description: "Declare city, rubric in the inputs of 'run'.",
            safety: 'safe',
            source: 'bundle-1.mthds',
            ops: [
              { kind: 'set_key', table_path: ['pipe', 'run', 'inputs'], key: 'city', value: 'Text' },
              { kind: 'set_key', table_path: ['pipe', 'run', 'inputs'], key: 'rubric', value: 'Text' },
            ],
          },
        },
      ]);
    });

    it('should require the batch_over list of an inline batch', () => {
      const text = sequence(
        '{ topic = "Text" }',
        '{ pipe = "summarize", batch_over = "chunks", batch_as = "chunk" }',
        func('summarize', '{ chunk = "Chunk" }'),
      );
      const items = runRule(sequenceInputs, text);
      expect(items.map((item) => [item.variable_names, item.suggested_fix?.ops])).to.deep.equal([
        [['chunks'], [{ kind: 'set_key', table_path: ['pipe', 'run', 'inputs'], key: 'chunks', value: 'Chunk[]' }]],
      ]);
    });
  });

  describe('when names come from inputs, earlier results, parallel branches, nested sequences or the batch item', () => {
    it('should pass', () => {
      const text = sequence(
        '{ doc = "Document", chunks = "Text[]" }',
        '{ pipe = "read", result = "pages" }, { pipe = "fan" }, { pipe = "inner" }, { pipe = "summarize", batch_over = "chunks", batch_as = "chunk" }, { pipe = "judge" }',
        func('read', '{ doc = "Document" }', 'Page[]'),
        '[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\ninputs = { pages = "Page[]" }\noutput = "Text"\nadd_each_output = true\nbranches = [{ pipe = "profile", result = "profile" }]',
        func('profile', '{ pages = "Page[]" }'),
        '[pipe.inner]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { pages = "Page[]" }\noutput = "Text"\nsteps = [{ pipe = "profile", result = "deep" }]',
        func('summarize', '{ chunk = "Text" }'),
        func('judge', '{ pages = "Page[]", profile = "Text", deep = "Text", "doc.url" = "Text" }'),
      );
      expect(runRule(sequenceInputs, text)).to.deep.equal([]);
    });
  });
});
