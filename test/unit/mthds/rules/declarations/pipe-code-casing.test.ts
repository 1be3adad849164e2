import { expect } from 'chai';
import { pipeCodeCasing } from '../../../../../shared/mthds/rules/declarations/pipe-code-casing.js';
import { bundle, runRule } from '../harness.js';

const pipe = (code: string) =>
  `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"`;

describe('S2-pipe-code-casing', () => {
  describe('when a pipe code is not snake_case', () => {
    it('should report it with a suggestion', () => {
      expect(runRule(pipeCodeCasing, bundle('docs', pipe('SummarizeText')))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe code 'SummarizeText' must be snake_case (lowercase letters, digits and underscores, starting with a letter), e.g. 'summarize_text'.",
          error_type: 'invalid_pipe_code_syntax',
          source: 'bundle-1.mthds',
          domain_code: 'docs',
          field_path: 'pipe.SummarizeText',
          pipe_code: 'SummarizeText',
        },
      ]);
    });
  });

  describe('when pipe codes are snake_case', () => {
    it('should pass', () => {
      expect(runRule(pipeCodeCasing, bundle('docs', `${pipe('summarize_text')}\n${pipe('step2')}`))).to.deep.equal([]);
    });
  });

  describe('when a pipe code is qualified with the bundle domain', () => {
    it('should report it with a safe strip-namespace fix that also remaps main_pipe', () => {
      expect(
        runRule(pipeCodeCasing, bundle('docs', `main_pipe = "docs.summarize"\n${pipe('"docs.summarize"')}`)),
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe code 'docs.summarize' is qualified with a domain; a bundle declares its pipes by bare code ('summarize'), the bundle's domain qualifies them.",
          error_type: 'invalid_pipe_code_syntax',
          source: 'bundle-1.mthds',
          domain_code: 'docs',
          field_path: 'pipe.docs.summarize',
          suggested_fix: {
            fix_code: 'strip-namespace',
            description:
              "Declare [pipe.summarize] without the 'docs.' qualifier: the bundle's domain already qualifies it.",
            safety: 'safe',
            source: 'bundle-1.mthds',
            ops: [
              { kind: 'rename_table_key', table_path: ['pipe'], key: 'docs.summarize', new_key: 'summarize' },
              { kind: 'remap_value', table_path: [], key: 'main_pipe', mapping: { 'docs.summarize': 'summarize' } },
            ],
          },
          pipe_code: 'docs.summarize',
        },
      ]);
    });
  });

  describe('when a pipe code is qualified with another domain', () => {
    it('should offer an unsafe fix renaming the key only', () => {
      const [item] = runRule(pipeCodeCasing, bundle('docs', pipe('"legal.summarize"')));
      expect(item?.suggested_fix).to.deep.include({
        safety: 'unsafe',
        ops: [{ kind: 'rename_table_key', table_path: ['pipe'], key: 'legal.summarize', new_key: 'summarize' }],
      });
    });
  });

  describe('when the bare code of a qualified pipe code is already declared', () => {
    it('should report it without a fix', () => {
      const items = runRule(pipeCodeCasing, bundle('docs', `${pipe('summarize')}\n${pipe('"docs.summarize"')}`));
      expect(items.map((item) => [item.pipe_code, item.suggested_fix])).to.deep.equal([['docs.summarize', undefined]]);
    });
  });
});
