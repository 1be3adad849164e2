import { expect } from 'chai';
import {
  flowMultiplicity,
  flowMultiplicityWarning,
} from '../../../../../shared/mthds/rules/data-flow/flow-multiplicity.js';
import { bundle, runEach, runRule } from '../harness.js';

const func = (code: string, inputs: string, output: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = ${inputs}\noutput = "${output}"\nfunction_name = "f"`;
const sequence = (inputs: string, steps: string, ...pipes: string[]) =>
  bundle(
    'flow',
    [
      `[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nsteps = [${steps}]`,
      ...pipes,
    ].join('\n'),
  );
const PAGES_TO_PAGE = sequence(
  '{ doc = "Document" }',
  '{ pipe = "read", result = "pages" }, { pipe = "use" }',
  func('read', '{ doc = "Document" }', 'Page[]'),
  func('use', '{ pages = "Page" }', 'Text'),
);

describe('V-M1 (step input multiplicity)', () => {
  describe('when a list is fed to a single input in strict mode', () => {
    it('should report an error', () => {
      expect(runRule(flowMultiplicity, PAGES_TO_PAGE, 'strict')).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'run', steps[1]: input 'pages' expects 'Page', but 'pages' (from step 'read') holds 'Page[]' (a different number of items).",
          error_type: 'input_stuff_spec_mismatch',
          source: 'bundle-1.mthds',
          pipe_code: 'run',
          domain_code: 'flow',
          field_path: 'pipe.run.steps[1].pipe',
          field_name: 'pipe',
        },
      ]);
    });
  });

  describe('when the same bundle is loaded in compat mode', () => {
    it('should only warn', () => {
      expect(runRule(flowMultiplicity, PAGES_TO_PAGE, 'compat')).to.deep.equal([]);
      expect(
        runRule(flowMultiplicityWarning, PAGES_TO_PAGE, 'compat').map((item) => [item.message, item.error_type]),
      ).to.deep.equal([
        [
          "Pipe 'run', steps[1]: input 'pages' expects 'Page', but 'pages' (from step 'read') holds 'Page[]' (a different number of items).",
          'input_stuff_spec_mismatch',
        ],
      ]);
      expect(runRule(flowMultiplicityWarning, PAGES_TO_PAGE, 'strict')).to.deep.equal([]);
      expect(flowMultiplicityWarning.severity).to.equal('warning');
    });
  });

  describe('when step overrides change the count', () => {
    it('should follow nb_output, multiple_output and inline batches', () => {
      const text = sequence(
        '{ topic = "Text", topics = "Text[]" }',
        '{ pipe = "write", result = "three", nb_output = 3 }, { pipe = "write", result = "one", multiple_output = false }, { pipe = "write", result = "each", batch_over = "topics", batch_as = "topic" }, { pipe = "use" }',
        func('write', '{ topic = "Text" }', 'Text[]'),
        func('use', '{ three = "Text[2]", one = "Text[]", each = "Text" }', 'Text'),
      );
      expect(runRule(flowMultiplicity, text, 'strict').map((item) => item.message)).to.deep.equal([
        "Pipe 'run', steps[3]: input 'three' expects 'Text[2]', but 'three' (from step 'write') holds 'Text[3]' (a different number of items).",
        "Pipe 'run', steps[3]: input 'one' expects 'Text[]', but 'one' (from step 'write') holds 'Text' (a different number of items).",
        "Pipe 'run', steps[3]: input 'each' expects 'Text', but 'each' (from step 'write') holds 'Text[]' (a different number of items).",
      ]);
    });

    it('should refuse a batch over a single item', () => {
      const text = sequence(
        '{ topic = "Text" }',
        '{ pipe = "write", batch_over = "topic", batch_as = "item" }',
        func('write', '{ item = "Text" }', 'Text'),
      );
      expect(runRule(flowMultiplicity, text, 'strict').map((item) => item.message)).to.deep.equal([
        "Pipe 'run', steps[0]: input 'item' expects 'Text[]', but input 'topic' holds 'Text' (a different number of items).",
      ]);
    });
  });

  describe('when counts match, parallel branch results included', () => {
    it('should pass in strict mode', () => {
      const texts = [
        sequence('{ docs = "Document[2]" }', '{ pipe = "use" }', func('use', '{ docs = "Document[]" }', 'Text')),
        sequence(
          '{ topic = "Text" }',
          '{ pipe = "fan" }, { pipe = "use" }',
          '[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\ninputs = { topic = "Text" }\noutput = "Text"\nadd_each_output = true\nbranches = [{ pipe = "write", result = "drafts" }]',
          func('write', '{ topic = "Text" }', 'Text[]'),
          func('use', '{ drafts = "Text[]" }', 'Text'),
        ),
      ];
      expect(runEach(flowMultiplicity, texts, 'strict')).to.deep.equal([]);
    });
  });
});
