import { expect } from 'chai';
import { type JsonLimits, scanJson } from '../../../api/body/json-scan.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const WIDE = 1_000_000_000;
const depth = (maxJsonDepth: number): JsonLimits => ({ maxJsonDepth, maxJsonValues: WIDE });
const values = (maxJsonValues: number): JsonLimits => ({ maxJsonDepth: WIDE, maxJsonValues });

describe('scanJson', () => {
  describe('when it measures depth', () => {
    it('should count each open array and object as one level', () => {
      expect(scanJson(bytes('{"a":[{}]}'), depth(3))).to.equal('ok');
      expect(scanJson(bytes('{"a":[{}]}'), depth(2))).to.equal('too_deep');
    });

    it('should give scalars depth 0', () => {
      expect(scanJson(bytes('"text"'), depth(0))).to.equal('ok');
      expect(scanJson(bytes('[]'), depth(0))).to.equal('too_deep');
    });

    it('should measure siblings, not their sum', () => {
      expect(scanJson(bytes(JSON.stringify({ a: [[1]], b: [[2]], c: { d: [3] } })), depth(3))).to.equal('ok');
    });

    it('should answer without recursion on a body deeper than any stack', () => {
      const levels = 1_000_000;
      const body = bytes(`${'['.repeat(levels)}${']'.repeat(levels)}`);
      expect(scanJson(body, depth(levels - 1))).to.equal('too_deep');
      expect(scanJson(body, depth(levels))).to.equal('ok');
    });
  });

  describe('when it counts values', () => {
    it('should count every value and key once, at every depth', () => {
      const body = bytes('{"a":[1,"x",true,null,-2.5e3,{}],"b":false}');
      expect(scanJson(body, values(11))).to.equal('ok');
      expect(scanJson(body, values(10))).to.equal('too_many_values');
    });

    it('should not count a UTF-8 byte order mark', () => {
      expect(scanJson(bytes('\uFEFF{"a":1}'), values(3))).to.equal('ok');
    });

    it('should count a scalar body as one value and whitespace as none', () => {
      expect(scanJson(bytes(' \n 12345 \t'), values(1))).to.equal('ok');
      expect(scanJson(bytes('[ 1 , 2 ]'), values(2))).to.equal('too_many_values');
      expect(scanJson(bytes('[ 1 , 2 ]'), values(3))).to.equal('ok');
    });

    it('should count a string once whatever it holds', () => {
      const body = bytes(JSON.stringify([`1, 2, [3], {"a": 4} \\ " ${'x'.repeat(1000)}`]));
      expect(scanJson(body, values(2))).to.equal('ok');
    });

    it('should stop at the first value past the limit', () => {
      const body = bytes(`[${'1,'.repeat(100)}"unterminated`);
      expect(scanJson(body, values(50))).to.equal('too_many_values');
    });
  });

  describe('when brackets are inside strings', () => {
    it('should not count them, escaped quotes included', () => {
      const body = JSON.stringify({ content: `${'['.repeat(500)}"\\${'{'.repeat(500)}`, text: 'a "quoted" [value]' });
      expect(scanJson(bytes(body), { maxJsonDepth: 1, maxJsonValues: 5 })).to.equal('ok');
    });

    it('should not be fooled by multi-byte characters around brackets', () => {
      expect(scanJson(bytes(JSON.stringify({ 'é€😀': ['[{é"}]'] })), { maxJsonDepth: 2, maxJsonValues: 4 })).to.equal(
        'ok',
      );
    });
  });

  describe('when a string escapes a surrogate', () => {
    const limits = { maxJsonDepth: 64, maxJsonValues: 1000 };

    it('should accept a high and low pair, in either case of hex digits', () => {
      expect(scanJson(bytes('["\\ud83d\\ude00","\\uD83D\\uDE00x"]'), limits)).to.equal('ok');
      expect(scanJson(bytes('{"\\ud83d\\ude00":"\\u00e9\\u20ac"}'), limits)).to.equal('ok');
    });

    it('should find a lone high, a lone low and a high followed by a non-surrogate escape', () => {
      for (const text of ['"\\ud800"', '"a\\ud800b"', '"\\udc00"', '"\\ud800\\u0041"', '{"\\ud800":1}', '"\\ud800\\n"'])
        expect(scanJson(bytes(text), limits), text).to.equal('lone_surrogate');
    });

    it('should find a lone surrogate at the very end of a truncated body', () => {
      expect(scanJson(bytes('"\\ud800'), limits)).to.equal('lone_surrogate');
    });

    it('should not read an escaped backslash followed by u as an escape', () => {
      expect(scanJson(bytes('"\\\\ud800"'), limits)).to.equal('ok');
    });

    it('should check depth and values past a lone surrogate', () => {
      expect(scanJson(bytes('["\\ud800",[[1]]]'), { maxJsonDepth: 2, maxJsonValues: 1000 })).to.equal('too_deep');
      expect(scanJson(bytes('["\\ud800",1,2]'), { maxJsonDepth: 64, maxJsonValues: 3 })).to.equal('too_many_values');
    });
  });
});
