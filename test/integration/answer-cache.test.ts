import { expect } from 'chai';
import request from 'supertest';
import { JWT_ENVIRONMENT, signTestJwt } from '../helpers/jwt.js';
import { chainBundle } from '../helpers/large-bundles.js';
import { buildTestApp } from '../helpers/test-app.js';

/** A validate body no other test sends: its dry run's graph carries the time it was computed. */
function freshBody(label: string): { mthds_contents: string[] } {
  return { mthds_contents: [chainBundle(3, `answer_cache_${label}_${process.pid}`)] };
}

/** When a validate answer was computed: its dry-run graph's `created_at`, with a digest it minted. */
function computedAt(body: { graph_spec: { created_at: string; nodes: { io: { outputs: { digest: string }[] } }[] } }) {
  return `${body.graph_spec.created_at} ${body.graph_spec.nodes[0]?.io.outputs[0]?.digest}`;
}

describe('diagnostic answer cache (DIAGNOSTIC_CACHE_MIB)', () => {
  it('should answer the same body from the same caller with the bytes of the first answer', async () => {
    const app = buildTestApp();
    const body = freshBody('same');
    const first = await request(app).post('/v1/validate').send(body).expect(200);
    const second = await request(app).post('/v1/validate').send(body).expect(200);
    expect(first.body.is_valid).to.equal(true);
    expect(second.text).to.equal(first.text);
    expect(second.headers['content-type']).to.equal('application/json');
  });

  it('should compute again for another body, another route or another deployment context', async () => {
    const app = buildTestApp();
    const body = freshBody('other');
    const first = await request(app).post('/v1/validate').send(body).expect(200);
    const strict = await request(app)
      .post('/v1/validate')
      .send({ ...body, mode: 'strict' })
      .expect(200);
    expect(computedAt(strict.body)).to.not.equal(computedAt(first.body));
    const resolved = await request(app)
      .post('/v1/resolve')
      .send({ files: [{ content: body.mthds_contents[0], source: 'chain.mthds' }] })
      .expect(200);
    expect(resolved.body.is_valid).to.equal(true);
    const otherDepth = await request(buildTestApp({ MAX_JSON_DEPTH: '63' }))
      .post('/v1/validate')
      .send(body)
      .expect(200);
    expect(computedAt(otherDepth.body)).to.not.equal(computedAt(first.body));
  });

  it('should keep answers per caller (AUTH_MODE=jwt), so no caller times another caller’s request', async () => {
    const app = buildTestApp(JWT_ENVIRONMENT);
    const body = freshBody('callers');
    const ask = async (userId: string) =>
      (
        await request(app)
          .post('/v1/validate')
          .set('authorization', `Bearer ${await signTestJwt({ user_id: userId })}`)
          .send(body)
          .expect(200)
      ).body;
    const ada = await ask('ada');
    const grace = await ask('grace');
    expect(computedAt(grace)).to.not.equal(computedAt(ada));
    expect(computedAt(await ask('ada'))).to.equal(computedAt(ada));
  });

  it('should compute every request when DIAGNOSTIC_CACHE_MIB=0', async () => {
    const app = buildTestApp({ DIAGNOSTIC_CACHE_MIB: '0' });
    const body = freshBody('off');
    const first = await request(app).post('/v1/validate').send(body).expect(200);
    const second = await request(app).post('/v1/validate').send(body).expect(200);
    expect(computedAt(second.body)).to.not.equal(computedAt(first.body));
  });

  it('should not keep a refusal: an invalid body is answered with its problem each time', async () => {
    const app = buildTestApp();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const response = await request(app).post('/v1/validate').send({ mthds_contents: 'not a list' }).expect(422);
      expect(response.body.error_type).to.equal('ValidationError');
    }
  });
});
