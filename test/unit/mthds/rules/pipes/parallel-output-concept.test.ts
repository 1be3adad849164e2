import { expect } from 'chai';
import { parallelOutputConcept } from '../../../../../shared/mthds/rules/pipes/parallel-output-concept.js';
import { bundle, runEach, runRule } from '../harness.js';

const parallel = (output: string) =>
  bundle(
    'flow',
    [
      '[concept.Pair]\ndescription = "d"\n[concept.Pair.structure]\nleft = { type = "concept", concept_ref = "native.Text", description = "l", required = true }\nright = { type = "concept", concept_ref = "native.Text", description = "r" }',
      '[concept.Wide]\ndescription = "d"\n[concept.Wide.structure]\nleft = { type = "concept", concept_ref = "native.Text", description = "l", required = true }\nextra = { type = "text", description = "e", required = true }',
      '[concept.Narrow]\ndescription = "d"\n[concept.Narrow.structure]\nleft = { type = "concept", concept_ref = "native.Text", description = "l" }',
      '[concept.Both]\ndescription = "d"\nrefines = "Pair"',
      `[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\noutput = "${output}"\nbranches = [{ pipe = "a", result = "left" }, { pipe = "a", result = "right" }]`,
      '[pipe.a]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"',
    ].join('\n'),
  );

describe('S4-parallel-output-concept', () => {
  describe('when the output cannot hold the branch results, in strict mode', () => {
    it('should report a native other than Composite with inadequate_output_concept', () => {
      expect(runRule(parallelOutputConcept, parallel('Text'), 'strict')).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'fan': the output 'Text' of a PipeParallel must be Composite or a structured concept whose fields are the branch results (left, right).",
          error_type: 'inadequate_output_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'fan',
          domain_code: 'flow',
          field_path: 'pipe.fan.output',
          field_name: 'output',
        },
      ]);
    });

    it('should name the required fields no branch fills and the results without a field', () => {
      expect(
        runEach(parallelOutputConcept, [parallel('Wide'), parallel('Narrow')], 'strict').map((item) => item.message),
      ).to.deep.equal([
        "Pipe 'fan': the output 'Wide' cannot hold the branch results; required fields no branch fills: extra; results it has no field for: right.",
        "Pipe 'fan': the output 'Narrow' cannot hold the branch results; results it has no field for: right.",
      ]);
    });

    it('should report a list output with inadequate_output_multiplicity', () => {
      const [item] = runRule(parallelOutputConcept, parallel('Composite[]'), 'strict');
      expect(item).to.deep.include({
        error_type: 'inadequate_output_multiplicity',
        message:
          "Pipe 'fan': the output 'Composite[]' of a PipeParallel is one combination of its branches; it cannot be a list.",
      });
    });
  });

  describe('when the output is Composite or a structure fitting the results (a refinement inherits it)', () => {
    it('should pass', () => {
      expect(
        runEach(parallelOutputConcept, [parallel('Composite'), parallel('Pair'), parallel('Both')], 'strict'),
      ).to.deep.equal([]);
    });
  });

  describe('when any output loads in compat mode (the 0.16-era branch-concept outputs)', () => {
    it('should pass', () => {
      expect(runRule(parallelOutputConcept, parallel('Text'), 'compat')).to.deep.equal([]);
    });
  });
});
