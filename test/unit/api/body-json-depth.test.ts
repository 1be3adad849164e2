import { expect } from 'chai';
import { jsonDepthExceeds } from '../../../api/body/json-depth.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('jsonDepthExceeds', () => {
  describe('when the body is within the limit', () => {
    it('should count each open array and object as one level', () => {
      expect(jsonDepthExceeds(bytes('{"a":[{}]}'), 3)).to.equal(false);
      expect(jsonDepthExceeds(bytes('{"a":[{}]}'), 2)).to.equal(true);
    });

    it('should give scalars depth 0', () => {
      expect(jsonDepthExceeds(bytes('"text"'), 0)).to.equal(false);
      expect(jsonDepthExceeds(bytes('[]'), 0)).to.equal(true);
    });

    it('should measure siblings, not their sum', () => {
      expect(jsonDepthExceeds(bytes(JSON.stringify({ a: [[1]], b: [[2]], c: { d: [3] } })), 3)).to.equal(false);
    });
  });

  describe('when brackets are inside strings', () => {
    it('should not count them, escaped quotes included', () => {
      const body = JSON.stringify({ content: `${'['.repeat(500)}"\\${'{'.repeat(500)}`, text: 'a "quoted" [value]' });
      expect(jsonDepthExceeds(bytes(body), 1)).to.equal(false);
    });

    it('should not be fooled by multi-byte characters around brackets', () => {
      expect(jsonDepthExceeds(bytes(JSON.stringify({ 'é€😀': ['[{é"}]'] })), 2)).to.equal(false);
    });
  });

  describe('when the body is deeper than any stack', () => {
    it('should answer without recursion', () => {
      const depth = 1_000_000;
      expect(jsonDepthExceeds(bytes(`${'['.repeat(depth)}${']'.repeat(depth)}`), depth - 1)).to.equal(true);
      expect(jsonDepthExceeds(bytes(`${'['.repeat(depth)}${']'.repeat(depth)}`), depth)).to.equal(false);
    });
  });
});
