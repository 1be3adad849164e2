import { expect } from 'chai';
import { pipeCodeCasing } from '../../../../../shared/mthds/rules/s2/pipe-code-casing.js';
import { bundle, runRule } from '../harness.js';

const pipe = (code: string) => `[pipe.${code}]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "f"`;

describe('S2-pipe-code-casing', () => {
  describe('when a pipe code is not snake_case', () => {
    it('should report it with a suggestion', () => {
      expect(runRule(pipeCodeCasing, bundle('docs', pipe('SummarizeText')))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe code 'SummarizeText' must be snake_case (lowercase letters, digits and underscores, starting with a letter), e.g. 'summarize_text'.",
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
});
