import { expect } from 'chai';
import { pipeRefs } from '../../../../../shared/mthds/rules/references/pipe-refs.js';
import { bundle, runRule } from '../harness.js';

const FUNC = (code: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"`;
const sequence = (domain: string, steps: string, extra = '') =>
  bundle(domain, `[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = [${steps}]\n${extra}`);

describe('S5-pipe-refs', () => {
  describe('when a step, outcome or batch branch names no pipe', () => {
    it('should report each with the missing code', () => {
      const text = bundle(
        'flow',
        [
          '[pipe.run]\ntype = "PipeSequence"\ndescription = "d"\noutput = "Text"\nsteps = [{ pipe = "first" }, { pipe = "ghost" }]',
          '[pipe.route]\ntype = "PipeCondition"\ndescription = "d"\noutput = "Text"\nexpression = "x"\noutcomes = { a = "phantom", b = "fail" }\ndefault_outcome = "continue"',
          '[pipe.each]\ntype = "PipeBatch"\ndescription = "d"\ninputs = { xs = "Text[]" }\noutput = "Text[]"\nbranch_pipe_code = "other.first"\ninput_list_name = "xs"\ninput_item_name = "x"',
          FUNC('first'),
        ].join('\n'),
      );
      const items = runRule(pipeRefs, text);
      expect(items[0]).to.deep.equal({
        category: 'pipe_validation',
        message: "Pipe 'run', field 'steps[1].pipe': pipe 'ghost' is not defined.",
        error_type: 'unresolved_pipe_dependency',
        source: 'bundle-1.mthds',
        pipe_code: 'run',
        domain_code: 'flow',
        field_path: 'pipe.run.steps[1].pipe',
        field_name: 'pipe',
        missing_pipe_code: 'ghost',
      });
      expect(items.slice(1).map((item) => [item.message, item.missing_pipe_code])).to.deep.equal([
        ["Pipe 'route', field 'outcomes.a': pipe 'phantom' is not defined.", 'phantom'],
        ["Pipe 'each', field 'branch_pipe_code': pipe 'other.first' is not defined in domain 'other'.", 'other.first'],
      ]);
    });
  });

  describe('when a bare code is defined in one other domain', () => {
    const texts = [sequence('report', '{ pipe = "analyze_all" }'), bundle('analysis', FUNC('analyze_all'))];

    it('should pass in compat mode (package-wide fallback)', () => {
      expect(runRule(pipeRefs, texts, 'compat')).to.deep.equal([]);
    });

    it('should ask for the qualified ref in strict mode', () => {
      expect(runRule(pipeRefs, texts, 'strict').map((item) => item.message)).to.deep.equal([
        "Pipe 'run', field 'steps[0].pipe': pipe 'analyze_all' is defined in domain 'analysis'; write 'analysis.analyze_all' (bare codes resolve in their own domain only).",
      ]);
    });
  });

  describe('when a bare code is defined in several other domains', () => {
    it('should report the ambiguity', () => {
      const texts = [
        sequence('report', '{ pipe = "shared" }'),
        bundle('a', FUNC('shared')),
        bundle('b', FUNC('shared')),
      ];
      expect(runRule(pipeRefs, texts).map((item) => item.message)).to.deep.equal([
        "Pipe 'run', field 'steps[0].pipe': pipe 'shared' is defined in several domains; write 'a.shared' or 'b.shared'.",
      ]);
    });
  });

  describe('when a cross-package reference names a loaded domain but no pipe of it', () => {
    it('should report the pipe as unresolved', () => {
      const texts = [
        sequence('report', '{ pipe = "github.com/acme/tools/cleaning->cleaning.missing" }'),
        bundle('cleaning', FUNC('normalize')),
      ];
      expect(runRule(pipeRefs, texts).map((item) => [item.message, item.missing_pipe_code])).to.deep.equal([
        [
          "Pipe 'run', field 'steps[0].pipe': pipe 'github.com/acme/tools/cleaning->cleaning.missing' is not defined in domain 'cleaning'.",
          'github.com/acme/tools/cleaning->cleaning.missing',
        ],
      ]);
    });
  });

  describe('when references are local, qualified, special or to a package that is not loaded', () => {
    it('should pass in strict mode', () => {
      const texts = [
        sequence(
          'report',
          '{ pipe = "local" }, { pipe = "analysis.analyze_all" }, { pipe = "github.com/Pipelex/methods/documents->documents.extract_text_pages" }',
          FUNC('local'),
        ),
        bundle('analysis', FUNC('analyze_all')),
      ];
      expect(runRule(pipeRefs, texts, 'strict')).to.deep.equal([]);
    });
  });
});
