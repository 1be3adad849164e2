/**
 * The readers behind the README examples test (test/integration/readme-examples.test.ts): the curl commands and their
 * answers as a shell would read them, and the JSON skeletons those answers are checked against.
 */
import { expect } from 'chai';
import { parseSkeleton, skeletonMismatches } from '../../helpers/json-skeleton.js';
import { curlExamples } from '../../helpers/readme-examples.js';

const FENCE = '```';

describe('README example parsing', () => {
  describe('curlExamples', () => {
    it('should read a command as a shell does: quotes, escapes, continuations, answer comments', () => {
      const markdown = [
        '## Section A',
        `${FENCE}bash`,
        'npm start   # not a curl: ignored',
        "curl -s localhost:8081/v1/x?y=1 -H 'Content-Type: application/json' \\",
        '  -d \'{"a": "it\'"\'"\'s"}\'',
        '# 202 {"a":1,',
        '#  …}',
        'curl -s http://localhost:8081/v1/z -X DELETE    # 204',
        FENCE,
        '## Section B',
        `${FENCE}bash`,
        'curl -s localhost:8081/v1/q -d "{\\"k\\": \\"v\\"}"',
        FENCE,
        'Prose between.',
        `${FENCE}json`,
        '{"k":"…"}',
        FENCE,
      ].join('\n');
      expect(curlExamples(markdown)).to.deep.equal([
        {
          section: 'Section A',
          line: 2,
          command: 'curl -s localhost:8081/v1/x?y=1 -H Content-Type: application/json -d {"a": "it\'s"}',
          method: 'POST',
          path: '/v1/x?y=1',
          headers: { 'Content-Type': 'application/json' },
          body: '{"a": "it\'s"}',
          answer: { status: 202, skeleton: '{"a":1,\n …}' },
        },
        {
          section: 'Section A',
          line: 2,
          command: 'curl -s http://localhost:8081/v1/z -X DELETE',
          method: 'DELETE',
          path: '/v1/z',
          headers: {},
          body: undefined,
          answer: { status: 204, skeleton: undefined },
        },
        {
          section: 'Section B',
          line: 11,
          command: 'curl -s localhost:8081/v1/q -d {"k": "v"}',
          method: 'POST',
          path: '/v1/q',
          headers: {},
          body: '{"k": "v"}',
          answer: { status: undefined, skeleton: '{"k":"…"}' },
        },
      ]);
    });

    it('should refuse a comment after a curl that is not an answer', () => {
      const markdown = [`${FENCE}bash`, 'curl -s localhost:8081/v1/x   # returns the thing', FENCE].join('\n');
      expect(() => curlExamples(markdown)).to.throw('is not an answer');
    });
  });

  describe('JSON skeletons', () => {
    const skeleton = parseSkeleton(
      '{"id":"…","state":"COMPLETED","n":1,"detail":"Validation error(s): …","items":[{"a":true},…],"rest":{…},…}',
    );

    it('should accept what varies where the skeleton says so', () => {
      const actual = {
        id: 'x',
        state: 'COMPLETED',
        n: 1,
        detail: 'Validation error(s): two',
        items: [{ a: true }, 3],
        rest: { any: [1] },
        extra: null,
      };
      expect(skeletonMismatches(skeleton, actual)).to.deep.equal([]);
    });

    it('should name every departure by its path', () => {
      const closed = parseSkeleton('{"a":{"b":[1,2]},"c":"x"}');
      expect(skeletonMismatches(closed, { a: { b: [1], d: 0 }, e: 1 })).to.deep.equal([
        '$.e: not in the documented answer',
        '$.a.d: not in the documented answer',
        '$.a.b: expected 2 items, got 1',
        '$.a.b[1]: expected 2, got undefined',
        '$.c: missing',
      ]);
      expect(skeletonMismatches(skeleton, { id: 1, state: 'FAILED' })).to.include.members([
        '$.id: expected a string matching /^.*$/s, got 1',
        '$.state: expected a string matching /^COMPLETED$/s, got "FAILED"',
      ]);
    });
  });
});
