/**
 * Regression of issue 29, finding 10 (identities): a JWT whose `user_id` held a trailing space or a homoglyph passed
 * authentication, then its run failed with 422 `StoragePathError` (the id is the default storage scope). The one rule
 * is now applied once, at authentication: a `user_id` is one path-safe segment (`[A-Za-z0-9_-]`, 1 to 128 characters),
 * else 401 `Unauthenticated` naming the offending character (README "Authentication", docs/run-ownership.md).
 */
import { expect } from 'chai';
import request from 'supertest';
import { JWT_ENVIRONMENT, signTestJwt } from '../helpers/jwt.js';
import { buildTestApp } from '../helpers/test-app.js';

const HELLO = {
  mthds_contents: [
    'domain = "hello_greeting"\nmain_pipe = "write_greeting"\n\n[pipe.write_greeting]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi $name."\n',
  ],
  inputs: { name: 'Ada' },
};
const RULE =
  "it must be one path-safe segment of 1 to 128 characters A-Z, a-z, 0-9, '_' or '-' (it names the caller's storage scope).";

describe('regression: a JWT user_id is one path-safe segment, checked at authentication (issue 29, finding 10)', () => {
  const app = buildTestApp(JWT_ENVIRONMENT);

  const refused: [what: string, userId: unknown, problem: string][] = [
    ['a trailing space', 'alice ', 'holds U+0020 at index 5'],
    ['a Cyrillic homoglyph', '\u0430lice', 'holds U+0430 at index 0'],
    ['a fullwidth letter', '\uff41lice', 'holds U+FF41 at index 0'],
    ['a zero-width space', 'ali\u200bce', 'holds U+200B at index 3'],
    ['a dot', 'al.ice', 'holds U+002E at index 2'],
    ['a slash', 'team/alice', 'holds U+002F at index 4'],
    ['129 characters', 'a'.repeat(129), 'has 129 characters'],
    ['a number', 42, 'is not a string'],
  ];

  for (const [what, userId, problem] of refused) {
    it(`should answer 401 naming the rule for a user_id with ${what}, before any run`, async () => {
      const token = await signTestJwt({ user_id: userId });
      const answer = await request(app).post('/v1/execute').set('authorization', `Bearer ${token}`).send(HELLO);
      expect(answer.status).to.equal(401);
      expect(answer.headers['www-authenticate']).to.equal('Bearer');
      expect(answer.body).to.deep.include({
        status: 401,
        error_type: 'Unauthenticated',
        detail: `Invalid token: user_id claim ${problem}; ${RULE}`,
      });
    });
  }

  it('should run for a user_id of the allowed form, its longest included', async () => {
    for (const userId of ['alice_01-X', 'b'.repeat(128)]) {
      const token = await signTestJwt({ user_id: userId });
      const answer = await request(app).post('/v1/execute').set('authorization', `Bearer ${token}`).send(HELLO);
      expect(answer.status, userId.slice(0, 12)).to.equal(200);
      expect(answer.body).to.include({ state: 'COMPLETED' });
    }
  });

  it('should refuse a malformed roles claim with 401', async () => {
    const token = await signTestJwt({ user_id: 'alice', roles: 'operator' });
    const answer = await request(app).get('/v1/version').set('authorization', `Bearer ${token}`);
    expect(answer.status).to.equal(401);
    expect(answer.body.detail).to.equal(
      'Invalid token: roles claim must be a list of at most 32 role names (1 to 64 characters each).',
    );
  });
});
