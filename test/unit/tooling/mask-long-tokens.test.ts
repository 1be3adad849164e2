import { expect } from 'chai';
import { parse } from 'smol-toml';
import { scanToml } from '../../../shared/mthds/parse/toml-scan.js';
import { maskLongTokens } from '../../../shared/tooling/mask-long-tokens.js';

function mask(text: string): string {
  return maskLongTokens(text, scanToml(text, { longToken: 8 }).longTokens);
}

describe('maskLongTokens', () => {
  describe('when a text has long tokens', () => {
    it('should keep the length and the data outside the masked tokens', () => {
      const text = `"long quoted key" = "a long basic string"\n[t]\nml = """\nline one\nline "two"\n"""\nlit = 'a long literal'\nn = 123456789012\nshort = "ok"\n`;
      const masked = mask(text);
      expect(masked).to.have.length(text.length);
      expect(parse(masked)).to.deep.equal({ k0: '', t: { ml: '', lit: '', n: 0, short: 'ok' } });
    });

    it('should give two long quoted keys two distinct names', () => {
      expect(Object.keys(parse(mask('"first long key" = 1\n"second long key" = 2')))).to.deep.equal(['k0', 'k1']);
    });
  });

  describe('when a text has no long token', () => {
    it('should return the text itself', () => {
      const text = 'a = "short"';
      expect(mask(text)).to.equal(text);
    });
  });
});
