/**
 * Runs waiting on inference do not hold scarce slots: one worker process with the default `WORKER_CONCURRENCY` keeps
 * far more runs in flight than it has cores (docs/runtime.md#worker-concurrency). Real Redis under a prefix of its
 * own; the inference port holds every call until the test releases them, so what is observed is how many runs wait
 * on inference at once — no clock involved.
 */
import { expect } from 'chai';
import { loadSettings } from '../../shared/config/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import { dispatchPolicy, type QueueBackend, type WorkerPool } from '../../shared/orchestration/index.js';
import { openQueueBackend, startWorkerPool } from '../../shared/orchestration/queued.js';
import type { InferencePort } from '../../shared/runtime/index.js';
import { greetingSubmission, inThreadBundleChecker } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';
import { testRunObjects } from '../helpers/run-objects.js';

/** Runs started at once: well above the old default of 8 and the machine's cores, below the default of 256. */
const RUNS = 64;

/** An inference port that holds every text call until `release()`, counting the calls waiting. */
function gatedInference(): { port: InferencePort; waiting(): number; release(): void } {
  const held: (() => void)[] = [];
  let open = false;
  const usage = { model: 'gated', input_tokens: 1, output_tokens: 1 };
  const port: InferencePort = {
    name: 'gated',
    isMock: false,
    async generateText(request) {
      if (!open) await new Promise<void>((resolve) => held.push(resolve));
      return { text: `answer to ${request.userPrompt}`, usage };
    },
    async generateObject() {
      throw new Error('the greeting bundle asks for text only');
    },
  };
  return {
    port,
    waiting: () => held.length,
    release() {
      open = true;
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

describe('worker concurrency (one worker pool, real Redis)', function () {
  this.timeout(60000);
  const prefix = uniquePrefix();
  const settings = loadSettings({ ...TEST_REDIS_ENVIRONMENT, QUEUE_PREFIX: prefix, LOG_LEVEL: 'silent' });
  const gate = gatedInference();
  let backend: QueueBackend;
  let pool: WorkerPool;

  before(() => {
    backend = openQueueBackend(settings);
    pool = startWorkerPool({
      settings,
      logger: createLogger('silent', 'test'),
      metrics: new Metrics(),
      inference: gate.port,
      readSecret: () => undefined,
    });
  });
  after(async () => {
    gate.release();
    await pool.close();
    await backend.close();
    await deletePrefix(prefix);
  });

  it(`should default WORKER_CONCURRENCY to 256 and keep ${RUNS} runs waiting on inference at once, then complete them all`, async () => {
    expect(settings.worker.concurrency).to.equal(256);
    const orchestrator = backend.orchestrator({
      policy: dispatchPolicy(settings.dispatch),
      metrics: new Metrics(),
      executeTimeoutMs: 1000,
      readSecret: () => undefined,
      now: () => Date.now(),
      bundles: inThreadBundleChecker(),
      objects: testRunObjects(),
    });
    for (let index = 0; index < RUNS; index += 1)
      await orchestrator.start!(
        greetingSubmission({
          inputs: { name: `person ${index}` },
          pipelineRunId: `run-${index}`,
          requestId: `req-${index}`,
        }),
      );
    expect(
      await pollUntil(
        async () => gate.waiting(),
        (waiting) => waiting === RUNS,
      ),
    ).to.equal(RUNS);
    gate.release();
    const states = await pollUntil(
      () =>
        Promise.all(
          Array.from({ length: RUNS }, async (_, index) => (await backend.registry.get(`run-${index}`))?.state),
        ),
      (all) => all.every((state) => state === 'COMPLETED'),
    );
    expect(new Set(states)).to.deep.equal(new Set(['COMPLETED']));
  });
});
