import { expect } from 'chai';
import { decodeJsonBody, type RawJsonBody } from '../../../api/body/decode-json.js';
import { InvalidJSON, ValidationError } from '../../../shared/errors/index.js';

const utf8 = (text: string, charset = 'utf-8'): RawJsonBody => ({ bytes: Buffer.from(text, 'utf8'), charset });

function failure(body: RawJsonBody, kind: 'run' | 'typed', maxDepth = 64): Error {
  try {
    decodeJsonBody(body, maxDepth, kind);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the body was accepted');
}

describe('decodeJsonBody (docs/isolation.md "Request bodies")', () => {
  describe('when the body is well-formed', () => {
    it('should parse any JSON value at the top level', () => {
      expect(decodeJsonBody(utf8('{"a":[1,"x"]}'), 64, 'typed')).to.deep.equal({ a: [1, 'x'] });
      expect(decodeJsonBody(utf8('"text"'), 64, 'typed')).to.equal('text');
    });

    it('should read an empty body as {} and an absent one as undefined', () => {
      expect(decodeJsonBody(utf8(''), 64, 'run')).to.deep.equal({});
      expect(decodeJsonBody(undefined, 64, 'run')).to.equal(undefined);
    });

    it('should decode a UTF-16 body and strip a UTF-8 byte order mark', () => {
      expect(
        decodeJsonBody({ bytes: Buffer.from('{"é":"ü"}', 'utf16le'), charset: 'utf-16le' }, 64, 'typed'),
      ).to.deep.equal({ é: 'ü' });
      expect(decodeJsonBody(utf8('\uFEFF{"a":1}'), 64, 'typed')).to.deep.equal({ a: 1 });
    });
  });

  describe('when the body is bad', () => {
    it('should give the run routes InvalidJSON and the typed routes ValidationError, quoting the parser', () => {
      const run = failure(utf8('{"a":'), 'run');
      expect(run).to.be.instanceOf(InvalidJSON);
      expect(run.message).to.match(/^Request body is not valid JSON: .*JSON/);
      const typed = failure(utf8('{"a":'), 'typed');
      expect(typed).to.be.instanceOf(ValidationError);
      expect(typed.message).to.match(/^body: JSON decode error: .*JSON/);
    });

    it('should refuse a charset that is not UTF-8 or UTF-16', () => {
      expect(failure(utf8('{}', 'latin1'), 'typed').message).to.equal(
        'body: JSON decode error: unsupported charset "LATIN1"',
      );
      expect(failure(utf8('{}', 'utf-7'), 'run').message).to.equal(
        'Request body is not valid JSON: unsupported charset "UTF-7"',
      );
    });

    it('should refuse nesting past the limit before parsing, in UTF-16 too', () => {
      expect(failure(utf8('[[[1]]]'), 'typed', 2).message).to.equal('JSON nesting depth exceeds 2 (MAX_JSON_DEPTH)');
      const deep = { bytes: Buffer.from('[[[1]]]', 'utf16le'), charset: 'utf-16le' };
      expect(failure(deep, 'run', 2)).to.be.instanceOf(InvalidJSON);
    });
  });
});
