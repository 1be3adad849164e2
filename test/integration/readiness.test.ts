import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { Readiness } from '../../api/readiness.js';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { createLogger } from '../../shared/observability/index.js';
import { openQueueBackend } from '../../shared/orchestration/queued.js';
import { testSettings } from '../helpers/config-dir.js';
import { pollUntil } from '../helpers/poll.js';
import { TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';
import { sharedDiagnostics } from '../helpers/test-app.js';

const PROBLEM_JSON = 'application/problem+json';

/** A warm-up the test finishes by hand. */
function pendingTask(): { task: Promise<void>; finish: () => void; fail: () => void } {
  let finish!: () => void;
  let fail!: () => void;
  const task = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = () => reject(new Error('the thread did not load'));
  });
  task.catch(() => undefined);
  return { task, finish, fail };
}

function appWith(readiness: Readiness, environment: Record<string, string> = {}) {
  const settings = testSettings(environment);
  return {
    settings,
    build: (queueBackend?: ReturnType<typeof openQueueBackend>) =>
      createApp({
        settings,
        logger: createLogger('silent', 'test'),
        inference: selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment),
        diagnostics: sharedDiagnostics(environment),
        readiness,
        ...(queueBackend ? { queueBackend } : {}),
      }),
  };
}

describe('GET /ready (readiness)', () => {
  describe('while a warm-up is pending', () => {
    it('should answer 503 ServiceNotReadyError naming it, with Retry-After, then 200 once it is done', async () => {
      const readiness = new Readiness();
      const warmUp = pendingTask();
      readiness.track('diagnostics_threads', warmUp.task);
      const app = appWith(readiness).build();

      const early = await request(app).get('/ready').expect(503);
      expect(early.headers['content-type']).to.equal(PROBLEM_JSON);
      expect(early.headers['retry-after']).to.equal('1');
      expect(early.body).to.include({
        error_type: 'ServiceNotReadyError',
        status: 503,
        retryable: true,
        detail: 'The service is not ready: diagnostics_threads pending.',
      });

      warmUp.finish();
      await warmUp.task;
      const ready = await request(app).get('/ready').expect(200);
      expect(ready.body).to.deep.equal({ status: 'ready', checks: { diagnostics_threads: 'ok' } });
    });
  });

  describe('when a warm-up failed', () => {
    it('should stay 503 naming the failed check, while /health answers 200', async () => {
      const readiness = new Readiness();
      const warmUp = pendingTask();
      readiness.track('diagnostics_threads', warmUp.task);
      const app = appWith(readiness).build();
      warmUp.fail();
      await warmUp.task.catch(() => undefined);

      const response = await request(app).get('/ready').expect(503);
      expect(response.body.detail).to.equal('The service is not ready: diagnostics_threads failed.');
      await request(app).get('/health').expect(200);
    });
  });

  describe('without authentication', () => {
    it('should answer like /health, outside auth', async () => {
      const app = appWith(new Readiness(), { AUTH_MODE: 'api_key', API_KEY: 'k' }).build();
      await request(app).get('/v1/version').expect(401);
      const response = await request(app).get('/ready').expect(200);
      expect(response.body).to.deep.equal({ status: 'ready', checks: {} });
    });
  });

  describe('in queue mode', () => {
    it('should probe Redis: 200 when it answers', async () => {
      const { settings, build } = appWith(new Readiness(), { ...TEST_REDIS_ENVIRONMENT, QUEUE_PREFIX: uniquePrefix() });
      const backend = openQueueBackend(settings);
      try {
        const app = build(backend);
        const response = await pollUntil(
          () => request(app).get('/ready'),
          (answer) => answer.status === 200,
        );
        expect(response.body).to.deep.equal({ status: 'ready', checks: { redis: 'ok' } });
      } finally {
        await backend.close();
      }
    });

    it('should answer 503 naming redis when Redis does not answer', async () => {
      const { settings, build } = appWith(new Readiness(), {
        REDIS_URL: 'redis://127.0.0.1:1',
        QUEUE_PREFIX: uniquePrefix(),
      });
      const backend = openQueueBackend(settings);
      try {
        const response = await request(build(backend)).get('/ready').expect(503);
        expect(response.body).to.include({
          error_type: 'ServiceNotReadyError',
          detail: 'The service is not ready: redis failed.',
        });
      } finally {
        await backend.close();
      }
    });
  });
});
