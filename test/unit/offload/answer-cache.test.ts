import { expect } from 'chai';
import { AnswerCache, type AnswerKeyParts } from '../../../api/offload/answer-cache.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const base: AnswerKeyParts = {
  route: 'validate',
  owner: 'ada',
  context: '[]',
  body: { bytes: bytes('{}'), charset: 'utf-8' },
};

describe('AnswerCache', () => {
  it('should key a request by every one of its parts', () => {
    const keys = new Set([
      AnswerCache.key(base),
      AnswerCache.key({ ...base, route: 'resolve' }),
      AnswerCache.key({ ...base, owner: 'grace' }),
      AnswerCache.key({ ...base, context: '[1]' }),
      AnswerCache.key({ ...base, body: { bytes: bytes('{}'), charset: 'utf-16le' } }),
      AnswerCache.key({ ...base, body: { bytes: bytes('{ }'), charset: 'utf-8' } }),
      AnswerCache.key({ ...base, body: undefined }),
      // Parts are length-prefixed: moving a character across a boundary makes another key.
      AnswerCache.key({ ...base, route: 'validatea', owner: 'da' }),
    ]);
    expect(keys.size).to.equal(8);
    expect(AnswerCache.key(base)).to.equal(
      AnswerCache.key({ ...base, body: { bytes: bytes('{}'), charset: 'utf-8' } }),
    );
  });

  it('should give back what it kept, drop the least recently used past its bytes, and keep nothing when off', () => {
    const cache = new AnswerCache(1500);
    cache.set('a', new Uint8Array(300));
    cache.set('b', new Uint8Array(300));
    expect(cache.get('a')?.byteLength).to.equal(300);
    cache.set('c', new Uint8Array(300));
    expect(cache.get('b')).to.equal(undefined);
    expect(cache.get('a')?.byteLength).to.equal(300);
    cache.set('huge', new Uint8Array(1500));
    expect(cache.get('huge')).to.equal(undefined);
    const off = new AnswerCache(0);
    off.set('a', new Uint8Array(1));
    expect(off.get('a')).to.equal(undefined);
  });
});
