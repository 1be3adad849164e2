import { expect } from 'chai';
import { packageRefs } from '../../../../../shared/mthds/rules/references/package-refs.js';
import { bundle, runRule } from '../harness.js';

const FUNC = (code: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { data = "Text" }\noutput = "Text"\nfunction_name = "f"`;
const sequence = (code: string, steps: string) =>
  `[pipe.${code}]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { data = "Text" }\noutput = "Text"\nsteps = [${steps}]`;

const LIB = 'github.com/acme/text-tools/cleaning->cleaning.normalize';
const OTHER = 'gitlab.com/someone/pkg->other_dep.entry';

describe('S5-package-refs', () => {
  describe('when pipes call packages that are not loaded', () => {
    it('should report each package once, on the first pipe and field naming it', () => {
      const text = bundle(
        'consumer',
        [
          sequence('go', `{ pipe = "${LIB}", result = "first" }, { pipe = "${OTHER}", result = "second" }`),
          sequence('again', `{ pipe = "${LIB}", result = "out" }`),
        ].join('\n'),
      );
      const items = runRule(packageRefs, text);
      expect(items[0]).to.deep.equal({
        category: 'pipe_validation',
        message: `Pipe 'go', field 'steps[0].pipe': '${LIB}' calls package 'github.com/acme/text-tools/cleaning', which is not loaded: cross-package references resolve among the bundles of the request (or, for a method_ref, the packages it references, fetched by address). Send that package's bundles too, or run the method by method_ref.`,
        error_type: 'unresolved_package_dependency',
        source: 'bundle-1.mthds',
        pipe_code: 'go',
        domain_code: 'consumer',
        field_path: 'pipe.go.steps[0].pipe',
        field_name: 'pipe',
        missing_pipe_code: LIB,
      });
      expect(items.map((item) => [item.pipe_code, item.missing_pipe_code, item.field_path])).to.deep.equal([
        ['go', LIB, 'pipe.go.steps[0].pipe'],
        ['go', OTHER, 'pipe.go.steps[1].pipe'],
      ]);
    });

    it('should read every controller field that names a pipe', () => {
      const text = bundle(
        'consumer',
        [
          '[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\ninputs = { data = "Text" }\noutput = "Text"',
          `expression = "data"\noutcomes = { yes = "continue" }\ndefault_outcome = "${LIB}"`,
          '[pipe.each]\ntype = "PipeBatch"\ndescription = "d"\ninputs = { items = "Text[]" }\noutput = "Text[]"',
          `branch_pipe_code = "${OTHER}"\ninput_list_name = "items"\ninput_item_name = "item"`,
        ].join('\n'),
      );
      expect(runRule(packageRefs, text).map((item) => item.field_path)).to.deep.equal([
        'pipe.route.default_outcome',
        'pipe.each.branch_pipe_code',
      ]);
    });
  });

  describe('when the called package comes with the request', () => {
    it('should pass', () => {
      const texts = [
        bundle('consumer', sequence('go', `{ pipe = "${LIB}", result = "first" }`)),
        bundle('cleaning', FUNC('normalize')),
      ];
      expect(runRule(packageRefs, texts)).to.deep.equal([]);
    });
  });
});
