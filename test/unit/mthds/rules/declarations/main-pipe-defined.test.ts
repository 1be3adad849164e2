import { expect } from 'chai';
import { mainPipeDefined } from '../../../../../shared/mthds/rules/declarations/main-pipe-defined.js';
import { bundle, runRule } from '../harness.js';

const PIPE =
  '[pipe.greet]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi $name"';

describe('S2-main-pipe-defined', () => {
  describe('when main_pipe names no pipe of the bundle', () => {
    it('should report it with the missing code', () => {
      expect(runRule(mainPipeDefined, bundle('shop', `main_pipe = "welcome"\n${PIPE}`))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "main_pipe 'welcome' is not a pipe of this bundle (its pipes: greet); define [pipe.welcome] here or fix the name.",
          error_type: 'unresolved_pipe_dependency',
          source: 'bundle-1.mthds',
          domain_code: 'shop',
          field_path: 'main_pipe',
          field_name: 'main_pipe',
          missing_pipe_code: 'welcome',
        },
      ]);
    });

    it('should not accept a pipe of another bundle of the same domain', () => {
      expect(runRule(mainPipeDefined, ['domain = "shop"\nmain_pipe = "greet"', bundle('shop', PIPE)])).to.have.length(
        1,
      );
    });
  });

  describe('when main_pipe is defined here, or absent', () => {
    it('should pass', () => {
      expect(
        runRule(mainPipeDefined, [bundle('shop', `main_pipe = "greet"\n${PIPE}`), bundle('shop2', PIPE)]),
      ).to.deep.equal([]);
    });
  });

  describe('when main_pipe is qualified with the bundle domain', () => {
    it('should report it with a safe strip-namespace fix', () => {
      expect(runRule(mainPipeDefined, bundle('shop', `main_pipe = "shop.greet"\n${PIPE}`))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "main_pipe 'shop.greet' is qualified with a domain; main_pipe names a pipe of this bundle by its bare code: 'greet'.",
          error_type: 'unresolved_pipe_dependency',
          source: 'bundle-1.mthds',
          domain_code: 'shop',
          field_path: 'main_pipe',
          field_name: 'main_pipe',
          missing_pipe_code: 'shop.greet',
          suggested_fix: {
            fix_code: 'strip-namespace',
            description: "Name the main pipe by its bare code 'greet'.",
            safety: 'safe',
            source: 'bundle-1.mthds',
            ops: [{ kind: 'remap_value', table_path: [], key: 'main_pipe', mapping: { 'shop.greet': 'greet' } }],
          },
        },
      ]);
    });

    it('should give no fix when the qualifier is another domain', () => {
      const [item] = runRule(mainPipeDefined, bundle('shop', `main_pipe = "other.greet"\n${PIPE}`));
      expect(item?.suggested_fix).to.equal(undefined);
    });
  });
});
