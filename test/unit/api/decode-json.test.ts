import { expect } from 'chai';
import { decodeJsonBody, type RawJsonBody } from '../../../api/body/decode-json.js';
import type { JsonLimits } from '../../../api/body/json-scan.js';
import { InvalidJSON, ValidationError } from '../../../shared/errors/index.js';

const utf8 = (text: string, charset = 'utf-8'): RawJsonBody => ({ bytes: Buffer.from(text, 'utf8'), charset });
const LIMITS: JsonLimits = { maxJsonDepth: 64, maxJsonValues: 100_000 };

function failure(body: RawJsonBody, kind: 'run' | 'typed', limits: Partial<JsonLimits> = {}): Error {
  try {
    decodeJsonBody(body, { ...LIMITS, ...limits }, kind);
  } catch (error) {
    return error as Error;
  }
  throw new Error('the body was accepted');
}

describe('decodeJsonBody (docs/isolation.md#request-bodies)', () => {
  describe('when the body is well-formed', () => {
    it('should parse any JSON value at the top level', () => {
      expect(decodeJsonBody(utf8('{"a":[1,"x"]}'), LIMITS, 'typed')).to.deep.equal({ a: [1, 'x'] });
      expect(decodeJsonBody(utf8('"text"'), LIMITS, 'typed')).to.equal('text');
    });

    it('should read an empty body as {} and an absent one as undefined', () => {
      expect(decodeJsonBody(utf8(''), LIMITS, 'run')).to.deep.equal({});
      expect(decodeJsonBody(undefined, LIMITS, 'run')).to.equal(undefined);
    });

    it('should decode a UTF-16 body and strip a UTF-8 byte order mark', () => {
      expect(
        decodeJsonBody({ bytes: Buffer.from('{"é":"ü"}', 'utf16le'), charset: 'utf-16le' }, LIMITS, 'typed'),
      ).to.deep.equal({ é: 'ü' });
      expect(decodeJsonBody(utf8('\uFEFF{"a":1}'), LIMITS, 'typed')).to.deep.equal({ a: 1 });
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
      expect(failure(utf8('[[[1]]]'), 'typed', { maxJsonDepth: 2 }).message).to.equal(
        'JSON nesting depth exceeds 2 (MAX_JSON_DEPTH)',
      );
      const deep = { bytes: Buffer.from('[[[1]]]', 'utf16le'), charset: 'utf-16le' };
      expect(failure(deep, 'run', { maxJsonDepth: 2 })).to.be.instanceOf(InvalidJSON);
    });

    it('should refuse more values than the limit before parsing, in UTF-16 too', () => {
      const detail =
        'JSON body holds more than 3 values (MAX_JSON_VALUES); each string, object key, number, true, false, null, array and object counts one';
      const typed = failure(utf8('{"a":[1,2'), 'typed', { maxJsonValues: 3 });
      expect(typed).to.be.instanceOf(ValidationError);
      expect(typed.message).to.equal(detail);
      const wide = { bytes: Buffer.from('[1,2,3,4]', 'utf16le'), charset: 'utf-16le' };
      const run = failure(wide, 'run', { maxJsonValues: 3 });
      expect(run).to.be.instanceOf(InvalidJSON);
      expect(run.message).to.equal(detail);
    });
  });

  describe('when a string holds a lone surrogate', () => {
    const detail = (where: string, surrogate: string) =>
      `${where} holds a lone UTF-16 surrogate (${surrogate}), which is not Unicode text: escape a character outside the Basic Multilingual Plane as a high and low surrogate pair (\\uD83D\\uDE00), or send it unescaped`;

    it('should refuse it with a ValidationError naming the path of the value, on either kind of route', () => {
      for (const kind of ['run', 'typed'] as const) {
        const error = failure(utf8('{"inputs":{"list":["ok","a\\udc00"]}}'), kind);
        expect(error).to.be.instanceOf(ValidationError);
        expect(error.message).to.equal(detail('body.inputs.list.1: the string', '\\uDC00'));
      }
    });

    it('should name the object whose key holds it, and the body itself for a top-level string', () => {
      expect(failure(utf8('{"inputs":{"\\ud800":1}}'), 'run').message).to.equal(
        detail('body.inputs: an object key', '\\uD800'),
      );
      expect(failure(utf8('"\\ud800"'), 'typed').message).to.equal(detail('body: the string', '\\uD800'));
    });

    it('should cut a long key of the path at 64 characters, never inside a surrogate pair', () => {
      const key = `${'k'.repeat(63)}😀${'k'.repeat(100)}`;
      const error = failure(utf8(`{${JSON.stringify(key)}:{"a":"\\ud800"}}`), 'run');
      expect(error.message).to.equal(detail(`body.${'k'.repeat(63)}….a: the string`, '\\uD800'));
    });

    it('should find it in a UTF-16 body', () => {
      const body = { bytes: Buffer.from('{"name":"\\udbff"}', 'utf16le'), charset: 'utf-16le' };
      expect(failure(body, 'run').message).to.equal(detail('body.name: the string', '\\uDBFF'));
    });

    it('should accept pairs, and a lone escape a later duplicate key replaced', () => {
      expect(decodeJsonBody(utf8('{"e":"\\ud83d\\ude00"}'), LIMITS, 'run')).to.deep.equal({ e: '😀' });
      expect(decodeJsonBody(utf8('{"a":"\\ud800","a":"x"}'), LIMITS, 'run')).to.deep.equal({ a: 'x' });
    });
  });
});
