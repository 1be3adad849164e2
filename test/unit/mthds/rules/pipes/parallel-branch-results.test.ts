import { expect } from 'chai';
import { parallelBranchResults } from '../../../../../shared/mthds/rules/pipes/parallel-branch-results.js';
import { bundle, runRule } from '../harness.js';

const parallel = (branches: string) =>
  bundle(
    'flow',
    `[pipe.fan]\ntype = "PipeParallel"\ndescription = "d"\noutput = "Text"\nadd_each_output = true\nbranches = [${branches}]\n[pipe.a]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"`,
  );

describe('S4-parallel-branch-results', () => {
  describe('when a branch has no result or repeats one', () => {
    it('should report each', () => {
      const items = runRule(
        parallelBranchResults,
        parallel('{ pipe = "a", result = "x" }, { pipe = "a" }, { pipe = "a", result = "x" }'),
      );
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message: "Pipe 'fan', branches[1]: every branch needs a result name.",
        error_type: 'invalid_pipe_field',
        source: 'bundle-1.mthds',
        pipe_code: 'fan',
        domain_code: 'flow',
        field_path: 'pipe.fan.branches[1].result',
        field_name: 'result',
      });
      expect(items[1]?.message).to.equal(
        "Pipe 'fan', branches[2]: result 'x' is already used by another branch; results must be unique.",
      );
    });
  });

  describe('when every branch has its own result', () => {
    it('should pass', () => {
      expect(
        runRule(parallelBranchResults, parallel('{ pipe = "a", result = "x" }, { pipe = "a", result = "y" }')),
      ).to.deep.equal([]);
    });
  });
});
