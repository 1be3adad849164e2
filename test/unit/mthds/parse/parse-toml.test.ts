import { expect } from 'chai';
import { MthdsParserError } from '../../../../shared/errors/index.js';
import { parseToml } from '../../../../shared/mthds/parse/parse-toml.js';

function parseError(content: string, source: string | null): MthdsParserError {
  try {
    parseToml(content, source);
  } catch (error) {
    if (error instanceof MthdsParserError) return error;
    throw error;
  }
  throw new Error('expected a MthdsParserError');
}

describe('parseToml', () => {
  describe('when the text is valid TOML', () => {
    it('should return plain JSON data with dates as ISO strings', () => {
      expect(parseToml('domain = "x"\nwhen = 2024-05-01\n[pipe.a]\nn = 3', 'x.mthds')).to.deep.equal({
        domain: 'x',
        when: '2024-05-01',
        pipe: { a: { n: 3 } },
      });
    });

    it('should return an empty table for an empty text', () => {
      expect(parseToml('', null)).to.deep.equal({});
    });
  });

  describe('when the text is not TOML', () => {
    it('should give the 1-based line and column of the error', () => {
      const error = parseError('domain = "x"\ndescription = "ok"\nmain_pipe = \n', 'greet.mthds');
      expect(error.position).to.deep.equal({ source: 'greet.mthds', line: 3, column: 13 });
      expect(error.message).to.match(/^TOML syntax error \(greet\.mthds, line 3, column 13\): /);
    });

    it('should locate the first line of the invalid sample', () => {
      const error = parseError('this is not valid TOML content at all {{{{\ndomain =\n', null);
      expect(error.position).to.deep.equal({ source: null, line: 1, column: 6 });
      expect(error.message).to.equal(
        'TOML syntax error (bundle, line 1, column 6): Invalid TOML document: illegal character in key',
      );
    });

    it('should refuse a duplicate key', () => {
      const error = parseError('domain = "x"\n[pipe.a]\ntype = "PipeLLM"\n[pipe.a]\ntype = "PipeLLM"\n', 'dup.mthds');
      expect(error.position).to.include({ source: 'dup.mthds', line: 4 });
      expect(error.error_type).to.equal('MthdsParserError');
    });
  });
});
