/**
 * The step checkpoints of queued runs in the real Redis (shared/orchestration/checkpoints, docs/checkpoints.md): kept
 * by step path in one hash per run with the run record's TTL, replayed only by the same submission (or a retry of it),
 * written behind in batches, bounded in size, kept for a failed run's retries, and never failing the run when something
 * is wrong.
 */

import type { Clock } from '@sinonjs/fake-timers';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import {
  CHECKPOINT_LINGER_MS,
  RunCheckpoints,
  submissionFingerprint,
} from '../../shared/orchestration/checkpoints/run-checkpoints.js';
import { QueueKeys, type RunJob } from '../../shared/orchestration/queued.js';
import type { StepCheckpoint } from '../../shared/runtime/index.js';
import { installFakeClock, uninstallFakeClock } from '../helpers/fake-clock.js';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.js';
import { startRedisServer } from '../helpers/redis-servers.js';

const JOB: RunJob = {
  pipeline_run_id: 'run-ckpt',
  request_id: 'req-1',
  owner: 'single-tenant',
  sources: [{ content: 'domain = "d"', source: 'b.mthds' }],
  pipe_code: 'four',
  inputs: { topic: 'tea' },
  output_name: null,
  output_multiplicity: null,
  dynamic_output_concept_ref: null,
  storage_scope: 'single-tenant',
  callback_urls: [],
  method_provenance: null,
  created_at: 1_760_000_000_000,
};

const CHECKPOINT: StepCheckpoint = {
  pipe_code: 'draft_one',
  inputs_digest: 'ab'.repeat(32),
  outcome: {
    kind: 'stuff',
    stuff_code: 'c1',
    stuff_name: 'one',
    concept_ref: 'native.Text',
    content: { kind: 'item', item: { text: 'a draft' } },
  },
  usage: [
    {
      modelType: 'llm',
      modelName: 'gpt-4o-mini',
      modelId: 'gpt-4o-mini',
      pipeCode: 'draft_one',
      jobCategory: 'llm_job',
      inputTokens: 11,
      outputTokens: 7,
      costUsd: 0.0001,
      backend: 'openai',
      startedAt: Date.parse('2026-01-15T12:00:00.000Z'),
      completedAt: Date.parse('2026-01-15T12:00:01.000Z'),
    },
  ],
};

/** {@link CHECKPOINT}'s calls as a checkpoint keeps them: the wire's usage records (as kept before the wire layer). */
const KEPT_USAGE = [
  {
    model_type: 'llm',
    inference_model_name: 'gpt-4o-mini',
    inference_model_id: 'gpt-4o-mini',
    pipe_code: 'draft_one',
    job_category: 'llm_job',
    unit_job_id: null,
    nb_tokens_by_category: { input: 11, output: 7 },
    cost: 0.0001,
    backend: 'openai',
    started_at: '2026-01-15T12:00:00.000Z',
    completed_at: '2026-01-15T12:00:01.000Z',
  },
];

describe('run checkpoints in Redis (shared/orchestration/checkpoints)', () => {
  let redis: Redis;
  let prefix: string;
  let keys: QueueKeys;
  let problems: string[];

  const checkpoints = (maxBytes = 1_048_576, retentionSeconds = 60, connection: Redis = redis) =>
    new RunCheckpoints(connection, keys, {
      ttlSeconds: 300,
      retentionSeconds,
      maxBytes,
      onProblem: (runId, message) => problems.push(`${runId}: ${message}`),
    });

  beforeEach(() => {
    redis = testRedis({ maxRetriesPerRequest: 1 });
    prefix = uniquePrefix();
    keys = new QueueKeys(prefix);
    problems = [];
  });

  afterEach(async () => {
    await deletePrefix(prefix);
    redis.disconnect();
  });

  it('should keep a checkpoint by step path under the run, with the run record’s TTL, and load it back', async () => {
    const store = checkpoints().forRun(JOB, true)!;
    expect(await store.load('main/s0')).to.equal(undefined);
    const savedBy = performance.now();
    await store.save('main/s0', CHECKPOINT);
    expect(await store.load('main/s0')).to.deep.equal(CHECKPOINT);
    expect(await checkpoints().forRun(JOB, true)!.load('main/s0'), 'another attempt reads it').to.deep.equal(
      CHECKPOINT,
    );
    expect(await redis.hkeys(`${prefix}:checkpoints:run-ckpt`)).to.deep.equal(['main/s0']);
    // set to the record's 300 s at the save: at most that, less at most the time since (Redis rounds to the second)
    const ttl = await redis.ttl(`${prefix}:checkpoints:run-ckpt`);
    expect(ttl).to.be.at.most(300);
    expect(ttl).to.be.at.least(300 - Math.ceil((performance.now() - savedBy) / 1000) - 1);
    expect(problems).to.deep.equal([]);
  });

  it('should keep the calls as usage records, and load a checkpoint kept in that form by an earlier release', async () => {
    await checkpoints().forRun(JOB, true)!.save('main/s0', CHECKPOINT);
    const kept = JSON.parse((await redis.hget(`${prefix}:checkpoints:run-ckpt`, 'main/s0'))!);
    expect(kept.checkpoint.usage).to.deep.equal(KEPT_USAGE);
    const earlier = { fingerprint: submissionFingerprint(JOB), checkpoint: { ...CHECKPOINT, usage: KEPT_USAGE } };
    await redis.hset(`${prefix}:checkpoints:run-ckpt`, 'main/s1', JSON.stringify(earlier));
    expect(await checkpoints().forRun(JOB, true)!.load('main/s1')).to.deep.equal(CHECKPOINT);
    expect(problems).to.deep.equal([]);
  });

  it('should keep an absent outcome as an absence record, and load one kept so', async () => {
    const absence = {
      variableName: 'four',
      kind: 'skipped' as const,
      reason: 'its input is absent',
      producingPipe: 'draft_four',
      upstream: {
        variableName: 'hint',
        kind: 'not_provided' as const,
        reason: 'omitted',
        producingPipe: null,
        upstream: null,
      },
    };
    const absent: StepCheckpoint = { ...CHECKPOINT, outcome: { kind: 'absent', absence } };
    await checkpoints().forRun(JOB, true)!.save('main/s3', absent);
    const kept = JSON.parse((await redis.hget(`${prefix}:checkpoints:run-ckpt`, 'main/s3'))!);
    expect(kept.checkpoint.outcome.absence).to.deep.equal({
      variable_name: 'four',
      kind: 'skipped',
      reason: 'its input is absent',
      producing_pipe: 'draft_four',
      upstream: {
        variable_name: 'hint',
        kind: 'not_provided',
        reason: 'omitted',
        producing_pipe: null,
        upstream: null,
      },
    });
    expect(await checkpoints().forRun(JOB, true)!.load('main/s3')).to.deep.equal(absent);
  });

  it('should not replay a checkpoint to another submission of the same run id', async () => {
    await checkpoints().forRun(JOB, true)!.save('main/s0', CHECKPOINT);
    for (const other of [
      { ...JOB, inputs: { topic: 'coffee' } },
      { ...JOB, sources: [{ content: 'domain = "e"', source: 'b.mthds' }] },
      { ...JOB, request_id: 'req-2', created_at: JOB.created_at + 1 },
    ])
      expect(await checkpoints().forRun(other, true)!.load('main/s0')).to.equal(undefined);
  });

  it('should fingerprint a submission by its content, not by its key order or its callbacks', () => {
    const reordered = Object.fromEntries(Object.entries(JOB).reverse()) as RunJob;
    expect(submissionFingerprint(reordered)).to.equal(submissionFingerprint(JOB));
    expect(submissionFingerprint({ ...JOB, callback_urls: ['https://example.com/hook'] })).to.equal(
      submissionFingerprint(JOB),
    );
    expect(submissionFingerprint({ ...JOB, output_multiplicity: 3 })).to.not.equal(submissionFingerprint(JOB));
    expect(submissionFingerprint(JOB)).to.match(/^[0-9a-f]{64}$/);
  });

  it('should not keep a checkpoint larger than the bound, and keep none with a bound of 0', async () => {
    const store = checkpoints(200).forRun(JOB, true)!;
    await store.save('main/s0', CHECKPOINT);
    expect(await store.load('main/s0')).to.equal(undefined);
    expect(problems).to.have.length(1);
    expect(problems[0]).to.match(
      /^run-ckpt: the checkpoint of step 'main\/s0' \(\d+ bytes\) is larger than STEP_CHECKPOINT_MAX_BYTES \(200\)/,
    );
    expect(checkpoints(0).forRun(JOB, true)).to.equal(undefined);
  });

  it('should answer no checkpoint for a stored value that is not one, and say so', async () => {
    await redis.hset(`${prefix}:checkpoints:run-ckpt`, 'main/s0', JSON.stringify({ fingerprint: 'x', checkpoint: 1 }));
    await redis.hset(`${prefix}:checkpoints:run-ckpt`, 'main/s1', '{not json');
    const store = checkpoints().forRun(JOB, true)!;
    expect(await store.load('main/s0')).to.equal(undefined);
    expect(await store.load('main/s1')).to.equal(undefined);
    expect(problems).to.deep.equal([
      "run-ckpt: the checkpoint of step 'main/s0' is not a valid checkpoint; the step runs again",
      "run-ckpt: the checkpoint of step 'main/s1' could not be read; the step runs again",
    ]);
  });

  it('should read nothing for a first attempt, and keep what it finishes', async () => {
    await checkpoints().forRun(JOB, true)!.save('main/s0', CHECKPOINT);
    const first = checkpoints().forRun(JOB, false)!;
    expect(await first.load('main/s0')).to.equal(undefined);
    await first.save('main/s1', CHECKPOINT);
    expect(await checkpoints().forRun(JOB, true)!.load('main/s1')).to.deep.equal(CHECKPOINT);
  });

  it('should answer a save written behind at once, and settle once its write has landed', async () => {
    // a Redis of the test's own, whose writes this test pauses
    const server = await startRedisServer([]);
    const own = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    const other = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    try {
      const store = checkpoints(1_048_576, 60, own).forRun(JOB, false, { behind: true })!;
      await other.call('CLIENT', 'PAUSE', '60000', 'WRITE');
      await store.save('main/s0', CHECKPOINT);
      let settled = false;
      const settling = store.settled().then(() => {
        settled = true;
      });
      expect(await other.exists(`${prefix}:checkpoints:run-ckpt`), 'answered before its write').to.equal(0);
      expect(settled).to.equal(false);
      await other.call('CLIENT', 'UNPAUSE');
      await settling;
      expect(await other.hexists(`${prefix}:checkpoints:run-ckpt`, 'main/s0')).to.equal(1);
      expect(problems).to.deep.equal([]);
    } finally {
      own.disconnect();
      other.disconnect();
      await server.stop();
    }
  });

  it('should hold the saves written behind for the linger, then write them in one script call', async () => {
    // a Redis of the test's own, whose commands this test counts
    const server = await startRedisServer([]);
    const own = new Redis(server.port, '127.0.0.1', { maxRetriesPerRequest: 1 });
    let clock: Clock | undefined;
    try {
      await own.config('RESETSTAT');
      clock = installFakeClock();
      const store = checkpoints(1_048_576, 60, own).forRun(JOB, false, { behind: true })!;
      await store.save('main/s0', CHECKPOINT);
      await store.save('main/s1', CHECKPOINT);
      await clock.tickAsync(CHECKPOINT_LINGER_MS - 1);
      expect(await own.exists(`${prefix}:checkpoints:run-ckpt`), 'held for the linger').to.equal(0);
      await clock.tickAsync(1);
      await store.settled();
      expect(await own.hkeys(`${prefix}:checkpoints:run-ckpt`)).to.have.members(['main/s0', 'main/s1']);
      expect(await own.ttl(`${prefix}:checkpoints:run-ckpt`)).to.be.within(1, 300);
      expect(await own.info('commandstats')).to.match(/^cmdstat_hset:calls=1,/m);
      expect(problems).to.deep.equal([]);
    } finally {
      if (clock) uninstallFakeClock(clock);
      own.disconnect();
      await server.stop();
    }
  });

  it('should write nothing a completed run abandons, and what it holds when it settles', async () => {
    const clock = installFakeClock();
    try {
      const behind = () => checkpoints().forRun(JOB, false, { behind: true })!;
      const abandoned = behind();
      await abandoned.save('main/s0', CHECKPOINT);
      await abandoned.abandon();
      await clock.tickAsync(2 * CHECKPOINT_LINGER_MS);
      await abandoned.settled();
      expect(await redis.exists(`${prefix}:checkpoints:run-ckpt`), 'abandoned').to.equal(0);
      const settling = behind();
      await settling.save('main/s1', CHECKPOINT);
      await settling.settled();
      expect(await redis.hkeys(`${prefix}:checkpoints:run-ckpt`), 'settled before the linger').to.deep.equal([
        'main/s1',
      ]);
    } finally {
      uninstallFakeClock(clock);
    }
  });

  it('should keep a run’s checkpoints for the retention from its end, and drop them with a retention of 0', async () => {
    await checkpoints().forRun(JOB, true)!.save('main/s0', CHECKPOINT);
    const retainedBy = performance.now();
    await checkpoints(1_048_576, 7200).retain('run-ckpt');
    const ttl = await redis.ttl(`${prefix}:checkpoints:run-ckpt`);
    expect(ttl).to.be.at.most(7200);
    expect(ttl).to.be.at.least(7200 - Math.ceil((performance.now() - retainedBy) / 1000) - 1);
    await checkpoints(1_048_576, 7200).forRun(JOB, true)!.save('main/s1', CHECKPOINT);
    expect(await redis.ttl(`${prefix}:checkpoints:run-ckpt`), 'a later save keeps the retention').to.be.above(300);
    await checkpoints(1_048_576, 0).retain('run-ckpt');
    expect(await redis.exists(`${prefix}:checkpoints:run-ckpt`)).to.equal(0);
  });

  it('should replay the original’s checkpoints to a retry’s first attempt, without their usage, and keep them as its own', async () => {
    await checkpoints().forRun(JOB, false)!.save('main/s0', CHECKPOINT);
    const retry: RunJob = {
      ...JOB,
      pipeline_run_id: 'run-retry',
      request_id: 'req-retry',
      created_at: JOB.created_at + 60_000,
      replay_from: { pipeline_run_id: JOB.pipeline_run_id, request_id: JOB.request_id, created_at: JOB.created_at },
    };
    const inherited = { ...CHECKPOINT, usage: [] };
    expect(await checkpoints().forRun(retry, false)!.load('main/s0')).to.deep.equal(inherited);
    expect(await checkpoints().forRun(retry, false)!.load('main/s1'), 'a step the original did not finish').to.equal(
      undefined,
    );
    expect(await redis.hkeys(`${prefix}:checkpoints:run-retry`)).to.deep.equal(['main/s0']);
    const retryOfRetry: RunJob = {
      ...retry,
      pipeline_run_id: 'run-retry-2',
      request_id: 'req-retry-2',
      replay_from: { pipeline_run_id: 'run-retry', request_id: 'req-retry', created_at: retry.created_at },
    };
    expect(await checkpoints().forRun(retryOfRetry, false)!.load('main/s0'), 'a retry of the retry').to.deep.equal(
      inherited,
    );
    expect(problems).to.deep.equal([]);
  });

  it('should not replay to a retry the checkpoints of another submission of the original’s id, or other inputs', async () => {
    await checkpoints().forRun(JOB, false)!.save('main/s0', CHECKPOINT);
    const retry: RunJob = {
      ...JOB,
      pipeline_run_id: 'run-retry',
      request_id: 'req-retry',
      replay_from: { pipeline_run_id: JOB.pipeline_run_id, request_id: 'req-earlier', created_at: JOB.created_at },
    };
    expect(await checkpoints().forRun(retry, false)!.load('main/s0')).to.equal(undefined);
    const otherInputs: RunJob = {
      ...retry,
      inputs: { topic: 'coffee' },
      replay_from: { pipeline_run_id: JOB.pipeline_run_id, request_id: JOB.request_id, created_at: JOB.created_at },
    };
    expect(await checkpoints().forRun(otherInputs, false)!.load('main/s0')).to.equal(undefined);
  });

  it('should lose a checkpoint, not fail, when Redis cannot be reached', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, lazyConnect: true });
    unreachable.on('error', () => undefined);
    try {
      const store = new RunCheckpoints(unreachable, keys, {
        ttlSeconds: 300,
        retentionSeconds: 3600,
        maxBytes: 1_048_576,
        onProblem: (runId, message) => problems.push(`${runId}: ${message}`),
      }).forRun(JOB, true)!;
      await store.save('main/s0', CHECKPOINT);
      expect(await store.load('main/s0')).to.equal(undefined);
      expect(problems).to.deep.equal([
        "run-ckpt: the checkpoint of step 'main/s0' could not be kept; the step would run again on a retake",
        "run-ckpt: the checkpoint of step 'main/s0' could not be read; the step runs again",
      ]);
    } finally {
      unreachable.disconnect();
    }
  });
});
