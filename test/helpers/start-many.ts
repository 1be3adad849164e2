/**
 * Start many runs of the greeting bundle through `POST /v1/start` of an in-process app, some requests at a time
 * (fair-dispatch tests and benchmarks).
 */
import type { Express } from 'express';
import request from 'supertest';
import { GREETING_BUNDLE } from './greeting-bundle.js';

/** The start request of every run. */
const START = { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } };

/**
 * Start `count` runs as the bearer of `token`, `parallel` requests at a time.
 * @param app - the API app
 * @param token - the caller's bearer token
 * @param count - runs to start
 * @param parallel - requests in flight at once
 * @returns the run ids, in start order
 * @throws AssertionError when a start is not answered 202
 */
export async function startMany(app: Express, token: string, count: number, parallel: number): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const index = next++;
        const answer = await request(app)
          .post('/v1/start')
          .set('Authorization', `Bearer ${token}`)
          .send(START)
          .expect(202);
        ids[index] = answer.body.pipeline_run_id as string;
      }
    }),
  );
  return ids;
}
