/**
 * The stops of a deployment on Redis pub/sub (docs/cancellation.md#how-a-run-stops), with real Redis: a stop one
 * process announces aborts the holds another process has of the run, and only those; a process whose subscription
 * dropped while a stop was published makes up for it once it is back, from the runs' records.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { RunControls, type RunRecord, type RunRef, RunRegistry } from '../../shared/orchestration/index.js';
import { QueueKeys, RedisStopChannel } from '../../shared/orchestration/queued.js';
import { pollUntil } from '../helpers/poll.js';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.js';

const RUN: RunRef = { pipelineRunId: 'run-1', requestId: 'req-1', createdAt: Date.parse('2026-11-29T10:00:00.000Z') };

function recordOf(run: RunRef, state: RunRecord['state']): RunRecord {
  return {
    pipeline_run_id: run.pipelineRunId,
    workflow_id: run.pipelineRunId,
    state,
    pipe_code: null,
    owner: 'alice',
    storage_scope: 'alice',
    request_id: run.requestId,
    created_at: new Date(run.createdAt).toISOString(),
    started_at: null,
    finished_at: null,
  };
}

describe('the stops of a deployment on Redis pub/sub (real Redis)', () => {
  let keys: QueueKeys;
  const connections: Redis[] = [];
  const channels: RedisStopChannel[] = [];

  const connect = () => {
    const redis = testRedis({ maxRetriesPerRequest: null });
    connections.push(redis);
    return redis;
  };

  /** One process's side: its holds and its channel. */
  async function process(): Promise<{ controls: RunControls; channel: RedisStopChannel; subscriber: Redis }> {
    const controls = new RunControls();
    const subscriber = connect();
    const registry = new RunRegistry(connect(), keys, 60, 100);
    const channel = new RedisStopChannel({ publisher: connect(), subscriber, keys, controls, records: registry });
    channels.push(channel);
    await channel.ready();
    return { controls, channel, subscriber };
  }

  beforeEach(() => {
    keys = new QueueKeys(uniquePrefix());
  });

  afterEach(async () => {
    for (const channel of channels.splice(0)) channel.close();
    for (const redis of connections.splice(0)) redis.disconnect();
    await deletePrefix(keys.prefix);
  });

  it('should abort the holds another process has of a stopped run, and only those', async () => {
    const api = await process();
    const worker = await process();
    const attempt = worker.controls.hold(RUN);
    const other = worker.controls.hold({ ...RUN, pipelineRunId: 'run-2' });
    await api.channel.announce([RUN], 'CANCELLED');
    await pollUntil(
      async () => attempt.signal.aborted,
      (aborted) => aborted,
    );
    expect((attempt.signal.reason as Error).name).to.equal('RunCancelledError');
    expect(other.signal.aborted).to.equal(false);
  });

  it('should make up for a stop published while its subscription was down, from the run’s record', async () => {
    const worker = await process();
    const attempt = worker.controls.hold(RUN);
    const untouched = worker.controls.hold({ ...RUN, pipelineRunId: 'run-2' });
    const registry = new RunRegistry(connect(), keys, 60, 100);
    await registry.save(recordOf(RUN, 'TIMED_OUT'));
    await registry.save(recordOf({ ...RUN, pipelineRunId: 'run-2' }, 'RUNNING'));
    // the connection drops and comes back; the stop itself was never heard
    worker.subscriber.disconnect(true);
    await pollUntil(
      async () => attempt.signal.aborted,
      (aborted) => aborted,
    );
    expect((attempt.signal.reason as Error).name).to.equal('RunTimedOutError');
    expect(untouched.signal.aborted).to.equal(false);
  });
});
