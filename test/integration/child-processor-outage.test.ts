/**
 * A fanned-out child whose run's payload cannot be read because Redis is unreachable (docs/fan-out.md#results-and-failures)
 * ends as a retryable `QueueUnavailableError` child result, which its run retries, rather than a failed child job that
 * its run would report as crashed (`RunCrashedError`, never retried). Real Redis; the run queue's connection is closed
 * before the child is taken.
 */
import { type Job, Queue } from 'bullmq';
import { expect } from 'chai';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import { RunControls } from '../../shared/orchestration/control/index.js';
import {
  CHILD_QUEUE,
  type ChildResultValue,
  childJobPayload,
  JobSeals,
  openRedis,
  QueueKeys,
  RUN_QUEUE,
} from '../../shared/orchestration/queue/index.js';
import { type ChildProcessorDeps, createChildProcessor } from '../../shared/orchestration/workers/child-processor.js';
import { batchWrapChild } from '../helpers/controllers-bundle.js';
import { deletePrefix, TEST_REDIS_TARGET, uniquePrefix } from '../helpers/redis.js';

/** A dependency the processor must not reach in this test: any use of it fails the test. */
function untouched<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, member) {
      throw new Error(`${name}.${String(member)} was used`);
    },
  });
}

describe('child processor: its run payload unreadable while Redis is down', function () {
  this.timeout(20_000);
  const prefix = uniquePrefix();
  const keys = new QueueKeys(prefix);
  const [sealing, broken] = [1, 2].map(() => openRedis(TEST_REDIS_TARGET, 'worker'));
  const runs = new Queue(RUN_QUEUE, { connection: broken!, prefix: keys.bullPrefix });

  after(async () => {
    await runs.close().catch(() => undefined);
    sealing!.disconnect();
    await deletePrefix(prefix);
  });

  it('should end the child with a retryable QueueUnavailableError result, not fail its job', async () => {
    const seals = new JobSeals(sealing!, keys);
    const deps: ChildProcessorDeps = {
      runs,
      seals,
      objects: untouched('objects'),
      inference: untouched('inference'),
      extractor: untouched('extractor'),
      templates: untouched('templates'),
      ids: untouched('ids'),
      now: Date.now,
      batchConcurrency: 1,
      checkpoints: untouched('checkpoints'),
      logger: createLogger('silent', 'test'),
      metrics: new Metrics(),
      controls: new RunControls(),
      docsUrl: 'https://docs.example/errors',
    };
    const data = await seals.seal(
      CHILD_QUEUE,
      childJobPayload({
        pipeline_run_id: 'outage-run',
        request_id: 'outage-request',
        run_job_id: 'outage-run-job',
        created_at: Date.now(),
        first_attempt: true,
        child: batchWrapChild('main/b0'),
      }),
    );
    await runs.waitUntilReady();
    broken!.disconnect();
    const job = { id: 'outage-child', data, attemptsMade: 0, stalledCounter: 0 } as unknown as Job;
    const value = (await createChildProcessor(deps)(job)) as ChildResultValue;
    expect(value.ok).to.equal(false);
    expect(value.ok ? undefined : value.error).to.include({
      error_type: 'QueueUnavailableError',
      retryable: true,
      message: 'The run queue (Redis) is unreachable: Connection is closed..',
    });
  });
});
