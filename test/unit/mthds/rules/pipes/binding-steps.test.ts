import { expect } from 'chai';
import { bindingSteps } from '../../../../../shared/mthds/rules/pipes/binding-steps.js';
import { bundle, runRule } from '../harness.js';

const sequence = (steps: string) =>
  bundle(
    'rounds',
    `[pipe.read]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { page = "Text" }\noutput = "Text"\nprompt = "$page"\n\n[pipe.walk]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { round = "Text" }\noutput = "Text"\nsteps = ${steps}`,
  );

describe('S4-binding-steps', () => {
  describe('when a binding step has a malformed path and a result that is not snake_case', () => {
    it('should report both', () => {
      expect(runRule(bindingSteps, sequence('[{ from = "round.notes[0]", result = "Note" }]'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'walk', field 'steps[0].from': \"round.notes[0]\" is not a binding path: write a root name then .field segments (letters, digits, _).",
          error_type: 'binding_step_invalid',
          source: 'bundle-1.mthds',
          pipe_code: 'walk',
          domain_code: 'rounds',
          field_path: 'pipe.walk.steps[0].from',
          field_name: 'from',
        },
        {
          category: 'blueprint_validation',
          message: "Pipe 'walk', field 'steps[0].result': \"Note\" is not a snake_case name.",
          error_type: 'binding_step_invalid',
          source: 'bundle-1.mthds',
          pipe_code: 'walk',
          domain_code: 'rounds',
          field_path: 'pipe.walk.steps[0].result',
          field_name: 'result',
        },
      ]);
    });
  });

  describe('when a path has a _-led segment, or a batch_over uses the private prefix', () => {
    it('should report them', () => {
      expect(
        runRule(
          bindingSteps,
          sequence(
            '[{ from = "round._secret", result = "x" }, { pipe = "read", batch_over = "_bound_pages", batch_as = "page" }]',
          ),
        ).map((item) => item.message),
      ).to.deep.equal([
        "Pipe 'walk', field 'steps[0].from': \"round._secret\" is not a binding path: write a root name then .field segments (letters, digits, _).",
        "Pipe 'walk', field 'steps[1].batch_over': \"_bound_pages\" uses the private prefix '_bound_'.",
      ]);
    });
  });

  describe('when a PipeParallel branch batches over a dotted path', () => {
    it('should report it', () => {
      const parallel = bundle(
        'rounds',
        '[pipe.read]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { page = "Text" }\noutput = "Text"\nprompt = "$page"\n\n[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\ninputs = { catalog = "Text" }\noutput = "Anything"\nadd_each_output = true\nbranches = [{ pipe = "read", batch_over = "catalog.pages", batch_as = "page", result = "r" }]',
      );
      expect(runRule(bindingSteps, parallel)).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'fan', field 'branches[0].batch_over': \"catalog.pages\" is a dotted path, which only PipeSequence steps may batch over.",
          error_type: 'binding_step_invalid',
          source: 'bundle-1.mthds',
          pipe_code: 'fan',
          domain_code: 'rounds',
          field_path: 'pipe.fan.branches[0].batch_over',
          field_name: 'batch_over',
        },
      ]);
    });
  });

  describe('when binding steps and batch paths are well formed', () => {
    it('should pass', () => {
      expect(
        runRule(
          bindingSteps,
          sequence(
            '[{ from = "round.note.body2", result = "body" }, { from = "round", result = "copy" }, { pipe = "read", batch_over = "round.pages", batch_as = "page" }]',
          ),
        ),
      ).to.deep.equal([]);
    });
  });
});
