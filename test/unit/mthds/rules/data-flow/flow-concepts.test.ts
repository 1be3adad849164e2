import { expect } from 'chai';
import { flowConcepts } from '../../../../../shared/mthds/rules/data-flow/flow-concepts.js';
import { bundle, runEach, runRule } from '../harness.js';

const CONCEPTS =
  '[concept.Summary]\ndescription = "s"\nrefines = "Text"\n[concept.Short]\ndescription = "short"\nrefines = "Summary"\n[concept.Score]\ndescription = "n"\n[concept.Score.structure]\nvalue = { type = "integer", description = "v" }';
const func = (code: string, inputs: string, output: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = ${inputs}\noutput = "${output}"\nfunction_name = "f"`;
const sequence = (inputs: string, steps: string, ...pipes: string[]) =>
  bundle(
    'flow',
    [
      CONCEPTS,
      `[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\ninputs = ${inputs}\noutput = "Text"\nsteps = [${steps}]`,
      ...pipes,
    ].join('\n'),
  );

describe('V-X1 (step input concepts)', () => {
  describe('when a step input is bound to an incompatible concept', () => {
    it('should report a sequence input given where a refinement is expected', () => {
      expect(
        runRule(
          flowConcepts,
          sequence('{ text = "Text" }', '{ pipe = "use" }', func('use', '{ text = "Summary" }', 'Text')),
        ),
      ).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'run', steps[0]: input 'text' expects 'flow.Summary', but input 'text' holds 'Text', which is neither that concept nor a refinement of it.",
          error_type: 'input_stuff_spec_mismatch',
          source: 'bundle-1.mthds',
          pipe_code: 'run',
          domain_code: 'flow',
          field_path: 'pipe.run.steps[0].pipe',
          field_name: 'pipe',
        },
      ]);
    });

    it('should report an earlier result and the item of an inline batch', () => {
      const text = sequence(
        '{ scores = "Score[]" }',
        '{ pipe = "rate", result = "best" }, { pipe = "use" }, { pipe = "each", batch_over = "scores", batch_as = "score" }',
        func('rate', '{}', 'Score'),
        func('use', '{ best = "Summary" }', 'Text'),
        func('each', '{ score = "Summary" }', 'Text'),
      );
      expect(runRule(flowConcepts, text).map((item) => item.message)).to.deep.equal([
        "Pipe 'run', steps[1]: input 'best' expects 'flow.Summary', but 'best' (from step 'rate') holds 'flow.Score', which is neither that concept nor a refinement of it.",
        "Pipe 'run', steps[2]: input 'score' expects 'flow.Summary', but an item of input 'scores' holds 'flow.Score', which is neither that concept nor a refinement of it.",
      ]);
    });
  });

  describe('when inputs receive the concept, a refinement of it, or Anything (a parallel stored under a branch result holds that branch output)', () => {
    it('should pass', () => {
      const texts = [
        sequence('{ text = "Short" }', '{ pipe = "use" }', func('use', '{ text = "Text" }', 'Text')),
        sequence(
          '{ text = "Text" }',
          '{ pipe = "guess", result = "text" }, { pipe = "use" }',
          func('guess', '{}', 'Anything'),
          func('use', '{ text = "Score" }', 'Text'),
        ),
        sequence('{ "doc.url" = "Text" }', '{ pipe = "use" }', func('use', '{ "doc.url" = "Score" }', 'Text')),
        sequence(
          '{}',
          '{ pipe = "both", result = "best" }, { pipe = "use" }',
          '[pipe.both]\ntype = "PipeParallel"\ndescription = "d"\noutput = "Summary"\nadd_each_output = true\nbranches = [{ pipe = "rate", result = "best" }, { pipe = "guess", result = "other" }]',
          func('rate', '{}', 'Score'),
          func('guess', '{}', 'Text'),
          func('use', '{ best = "Score" }', 'Text'),
        ),
      ];
      expect(runEach(flowConcepts, texts)).to.deep.equal([]);
    });
  });
});
