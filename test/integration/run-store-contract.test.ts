/**
 * One contract for both run stores and event logs (CONTRIBUTING.md#20-tests-mirror-the-source): the Redis registry and
 * event log (real Redis,
 * a prefix of its own) and the in-memory ones of a deployment without Redis must answer alike. Then what only the
 * in-memory table has: its lifetime and its bounds, on a clock of the test's own.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import {
  type LoggedRunEvent,
  memoryRuns,
  RedisRunEventLog,
  type RunEvent,
  type RunEventLog,
  type RunRecord,
  RunRegistry,
  type RunStore,
  runFinishedEvent,
} from '../../shared/orchestration/index.js';
import { openRedis, QueueKeys } from '../../shared/orchestration/queued.js';
import { deletePrefix, TEST_REDIS_TARGET, testRedis, uniquePrefix } from '../helpers/redis.js';

const NOW = Date.parse('2026-11-25T10:00:00.000Z');
const MAX_EVENTS = 5;

function record(runId: string, owner: string, state: RunRecord['state'] = 'STARTED'): RunRecord {
  return {
    pipeline_run_id: runId,
    workflow_id: `job-${runId}`,
    state,
    pipe_code: null,
    owner,
    storage_scope: owner,
    request_id: 'req-1',
    created_at: new Date(NOW).toISOString(),
    started_at: null,
    finished_at: null,
  };
}

function started(runId: string, attempt = 1): RunEvent {
  return { type: 'run:started', pipeline_run_id: runId, at: new Date(NOW).toISOString(), pipe_code: null, attempt };
}

async function collect(events: RunEventLog, runId: string, after: string | null = null): Promise<LoggedRunEvent[]> {
  const logged: LoggedRunEvent[] = [];
  for await (const entry of events.follow(runId, { after, wait: false, signal: new AbortController().signal }))
    logged.push(entry);
  return logged;
}

/** What a contract suite is run on. */
interface Subject {
  store: RunStore;
  events: RunEventLog;
}

function contract(name: string, open: () => Promise<Subject>, close: () => Promise<void>): void {
  describe(`the run store and event log contract: ${name}`, () => {
    let subject: Subject;
    before(async () => {
      subject = await open();
    });
    after(close);

    it('should claim a fresh id, refuse it while in flight and to another owner, and free it on finish', async () => {
      const { store } = subject;
      expect(await store.claim(record('c1', 'alice'))).to.equal('claimed');
      expect(await store.claim(record('c1', 'alice'))).to.equal('in_flight');
      expect(await store.claim(record('c1', 'bob'))).to.equal('taken');
      await store.finish({ ...record('c1', 'alice'), state: 'COMPLETED' });
      expect(await store.claim(record('c1', 'bob'))).to.equal('taken');
      expect(await store.claim(record('c1', 'alice'))).to.equal('claimed');
    });

    it('should hand a record to its owner only', async () => {
      const { store } = subject;
      await store.save(record('o1', 'alice'));
      expect(await store.getOwned('o1', 'alice')).to.deep.equal(record('o1', 'alice'));
      expect(await store.getOwned('o1', 'bob')).to.equal(undefined);
      expect(await store.getOwned('never', 'alice')).to.equal(undefined);
      await store.save({ ...record('o1', 'alice'), state: 'RUNNING' });
      expect(await store.getOwned('o1', 'alice')).to.deep.include({ state: 'RUNNING', owner: 'alice' });
    });

    it("should record a run's end once: a second end, or the end of an earlier submission of the id, is refused", async () => {
      const { store } = subject;
      expect(await store.claim(record('f1', 'alice'))).to.equal('claimed');
      const running = { ...record('f1', 'alice'), state: 'RUNNING' as const };
      await store.save(running);
      const completed = { ...running, state: 'COMPLETED' as const, finished_at: new Date(NOW).toISOString() };
      const failed = { ...running, state: 'FAILED' as const, finished_at: new Date(NOW).toISOString() };
      expect(await store.finishOnce(completed, { release: true })).to.equal('recorded');
      expect(await store.finishOnce(failed, { release: true })).to.equal('already_finished');
      expect(await store.get('f1')).to.deep.equal(completed);
      const later = { ...record('f1', 'alice'), request_id: 'req-2' };
      expect(await store.claim(later), 'the first end freed the id').to.equal('claimed');
      expect(await store.finishOnce(failed, { release: false }), 'an earlier submission').to.equal('already_finished');
      expect(await store.get('f1')).to.deep.equal(later);
      expect(await store.finishOnce({ ...record('gone', 'alice'), state: 'FAILED' }, { release: false })).to.equal(
        'recorded',
      );
    });

    it("should write a run's end and its events in one step, keeping the last events, and no events with a refused end", async () => {
      const { store, events } = subject;
      expect(await store.claim(record('w1', 'alice'))).to.equal('claimed');
      await events.append('w1', [started('w1', 1)]);
      const completed = {
        ...record('w1', 'alice'),
        state: 'COMPLETED' as const,
        finished_at: new Date(NOW).toISOString(),
      };
      const progress = { current_pipe: null, finished_pipes: 2 };
      const tail = [2, 3, 4, 5, 6].map((attempt) => started('w1', attempt));
      const end = { events: [...tail, runFinishedEvent('w1', NOW, 2, null)], progress };
      expect(await store.finishOnce(completed, { release: true, events: end })).to.equal('recorded');
      const attemptOrEnd = (logged: LoggedRunEvent[]) =>
        logged.map((entry) => (entry.event.type === 'run:started' ? entry.event.attempt : entry.event.type));
      expect(attemptOrEnd(await collect(events, 'w1'))).to.deep.equal([3, 4, 5, 6, 'run:finished']);
      expect(await events.progress('w1')).to.deep.equal(progress);
      expect(await store.get('w1')).to.deep.equal(completed);
      expect(await store.claim(record('w1', 'alice')), 'the end freed the id').to.equal('claimed');
      const stale = {
        events: [runFinishedEvent('w1', NOW, 9, null)],
        progress: { current_pipe: null, finished_pipes: 9 },
      };
      const earlier = { ...completed, request_id: 'req-0' };
      expect(await store.finishOnce(earlier, { release: true, events: stale })).to.equal('already_finished');
      expect(await collect(events, 'w1'), 'nothing of the refused end').to.deep.equal([]);
      expect(await events.progress('w1')).to.equal(undefined);
    });

    it("should append the events of one submission only while the id's record is that submission's", async () => {
      const { store, events } = subject;
      const first = record('g1', 'alice');
      const of = (held: RunRecord) => ({ created_at: held.created_at, request_id: held.request_id });
      await events.append('g1', [started('g1', 1)], undefined, of(first));
      expect(await store.claim(first)).to.equal('claimed');
      await events.append('g1', [started('g1', 2)], undefined, of(first));
      await store.finish({ ...first, state: 'FAILED' });
      const later = { ...first, request_id: 'req-2' };
      expect(await store.claim(later)).to.equal('claimed');
      await events.append(
        'g1',
        [runFinishedEvent('g1', NOW, 0, null)],
        { current_pipe: null, finished_pipes: 7 },
        of(first),
      );
      expect(await collect(events, 'g1'), "the earlier run's late end").to.deep.equal([]);
      expect(await events.progress('g1')).to.equal(undefined);
      await events.append('g1', [started('g1', 3)], undefined, of(later));
      const attempts = (await collect(events, 'g1')).map((entry) => (entry.event as { attempt: number }).attempt);
      expect(attempts).to.deep.equal([3]);
    });

    it('should leave nothing of an abandoned claim', async () => {
      const { store, events } = subject;
      expect(await store.claim(record('a1', 'alice'))).to.equal('claimed');
      await events.append('a1', [started('a1')]);
      await store.abandon('a1');
      expect(await store.get('a1')).to.equal(undefined);
      expect(await collect(events, 'a1')).to.deep.equal([]);
      expect(await store.claim(record('a1', 'bob'))).to.equal('claimed');
    });

    it('should keep events in order with increasing ids, resume after an id, and end at the terminal event', async () => {
      const { events } = subject;
      await events.append('e1', [started('e1')]);
      await events.append('e1', [started('e1', 2)], { current_pipe: null, finished_pipes: 0 });
      await events.append('e1', [runFinishedEvent('e1', NOW, 0, null)]);
      await events.append('e1', [started('e1', 3)]);
      const logged = await collect(events, 'e1');
      expect(logged.map((entry) => entry.event.type)).to.deep.equal(['run:started', 'run:started', 'run:finished']);
      const ids = logged.map((entry) => entry.id);
      const numbers = ids.map((id) => id.split('-').map(Number) as [number, number]);
      numbers.slice(1).forEach(([ms, seq], index) => {
        const [previousMs, previousSeq] = numbers[index]!;
        expect(ms > previousMs || (ms === previousMs && seq > previousSeq), `${ids}`).to.equal(true);
      });
      expect((await collect(events, 'e1', ids[0]!)).map((entry) => entry.id)).to.deep.equal(ids.slice(1));
      expect(await events.progress('e1')).to.deep.equal({ current_pipe: null, finished_pipes: 0 });
      expect(await events.progress('never')).to.equal(undefined);
    });

    it(`should keep the last ${MAX_EVENTS} events of a run`, async () => {
      const { events } = subject;
      for (let attempt = 1; attempt <= MAX_EVENTS + 2; attempt += 1)
        await events.append('t1', [started('t1', attempt)]);
      const kept = await collect(events, 't1');
      expect(kept.map((entry) => (entry.event as { attempt: number }).attempt)).to.deep.equal([3, 4, 5, 6, 7]);
    });

    it(`should keep the last ${MAX_EVENTS} events across many appends, and resume from a dropped id with the oldest kept`, async () => {
      const { events } = subject;
      await events.append('m1', [started('m1', 1)]);
      const [first] = await collect(events, 'm1');
      for (let attempt = 2; attempt <= 10 * MAX_EVENTS; attempt += 1)
        await events.append('m1', [started('m1', attempt)]);
      const attempts = (logged: { event: unknown }[]) =>
        logged.map((entry) => (entry.event as { attempt: number }).attempt);
      const kept = await collect(events, 'm1');
      expect(attempts(kept)).to.deep.equal([46, 47, 48, 49, 50]);
      expect(attempts(await collect(events, 'm1', first!.id))).to.deep.equal([46, 47, 48, 49, 50]);
      expect(attempts(await collect(events, 'm1', kept[2]!.id))).to.deep.equal([49, 50]);
    });

    it("should drop a run's events when its owner claims its finished id again", async () => {
      const { store, events } = subject;
      expect(await store.claim(record('r1', 'alice'))).to.equal('claimed');
      await events.append('r1', [started('r1')], { current_pipe: null, finished_pipes: 3 });
      await store.finish({ ...record('r1', 'alice'), state: 'COMPLETED' });
      expect(await store.claim(record('r1', 'alice'))).to.equal('claimed');
      expect(await collect(events, 'r1')).to.deep.equal([]);
      expect(await events.progress('r1')).to.equal(undefined);
    });

    it('should wake a waiting follower with each new event and end it at the terminal event', async () => {
      const { store, events } = subject;
      await store.save(record('w1', 'alice'));
      const stop = new AbortController();
      const seen: string[] = [];
      const following = (async () => {
        for await (const entry of events.follow('w1', { after: null, wait: true, signal: stop.signal }))
          seen.push(entry.event.type);
      })();
      await events.append('w1', [started('w1')]);
      await events.append('w1', [runFinishedEvent('w1', NOW, 0, null)]);
      await following;
      expect(seen).to.deep.equal(['run:started', 'run:finished']);
    });

    it('should end a waiting follower when its signal aborts', async () => {
      const stop = new AbortController();
      const following = (async () => {
        const seen: LoggedRunEvent[] = [];
        for await (const entry of subject.events.follow('quiet', { after: null, wait: true, signal: stop.signal }))
          seen.push(entry);
        return seen;
      })();
      stop.abort();
      expect(await following).to.deep.equal([]);
    });
  });
}

const prefix = uniquePrefix();
let redis: Redis;
let log: RedisRunEventLog;
contract(
  'Redis registry and Redis Streams',
  async () => {
    const keys = new QueueKeys(prefix);
    redis = testRedis({ maxRetriesPerRequest: 1 });
    log = new RedisRunEventLog({
      redis,
      keys,
      ttlSeconds: 60,
      maxEventsPerRun: MAX_EVENTS,
      openReader: () => openRedis(TEST_REDIS_TARGET, 'reader'),
    });
    return { store: new RunRegistry(redis, keys, 60, MAX_EVENTS), events: log };
  },
  async () => {
    log.close();
    redis.disconnect();
    await deletePrefix(prefix);
  },
);

contract(
  'in memory',
  async () =>
    memoryRuns({ ttlSeconds: 60, maxRuns: 100, maxBytes: 1024 * 1024, maxEventsPerRun: MAX_EVENTS, now: () => NOW }),
  async () => undefined,
);

describe('the in-memory runs (bounds and lifetime)', () => {
  let now = NOW;
  const clock = () => now;

  beforeEach(() => {
    now = NOW;
  });

  it('should forget a run RUN_RECORD_TTL_SECONDS after its last update, and keep one updated since', async () => {
    const { store, events } = memoryRuns({
      ttlSeconds: 10,
      maxRuns: 10,
      maxBytes: 1 << 20,
      maxEventsPerRun: 5,
      now: clock,
    });
    await store.save(record('old', 'alice'));
    await store.save(record('kept', 'alice'));
    now += 9000;
    await events.append('kept', [started('kept')]);
    now += 1000;
    expect(await store.get('old')).to.equal(undefined);
    expect(await store.getOwned('kept', 'alice')).to.deep.equal(record('kept', 'alice'));
    now += 10000;
    expect(await store.get('kept')).to.equal(undefined);
    expect(await events.progress('kept')).to.equal(undefined);
  });

  it('should drop the least recently updated run beyond RUN_RECORDS_MAX_IN_MEMORY', async () => {
    const { store } = memoryRuns({ ttlSeconds: 60, maxRuns: 2, maxBytes: 1 << 20, maxEventsPerRun: 5, now: clock });
    await store.save(record('first', 'alice'));
    await store.save(record('second', 'alice'));
    await store.save({ ...record('first', 'alice'), state: 'RUNNING' });
    await store.save(record('third', 'alice'));
    expect(await store.get('second')).to.equal(undefined);
    expect(await store.get('first')).to.deep.include({ state: 'RUNNING' });
    expect(await store.get('third')).to.deep.include({ pipeline_run_id: 'third' });
  });

  it('should drop the least recently updated runs beyond RUN_RECORDS_MAX_IN_MEMORY_MIB, never the one written', async () => {
    const size = JSON.stringify(record('run-1', 'alice')).length;
    const { store } = memoryRuns({ ttlSeconds: 60, maxRuns: 100, maxBytes: size * 2, maxEventsPerRun: 5, now: clock });
    await store.save(record('run-1', 'alice'));
    await store.save(record('run-2', 'alice'));
    await store.save(record('run-3', 'alice'));
    expect(await store.get('run-1')).to.equal(undefined);
    expect(await store.get('run-2')).to.not.equal(undefined);
    const huge = { ...record('run-4', 'alice'), pipe_code: 'x'.repeat(size * 3) };
    await store.save(huge);
    expect(await store.get('run-4')).to.deep.equal(huge);
    expect(await store.get('run-2')).to.equal(undefined);
    expect(await store.get('run-3')).to.equal(undefined);
  });

  it('should end a waiting follower when its run is dropped', async () => {
    const { store, events } = memoryRuns({
      ttlSeconds: 60,
      maxRuns: 1,
      maxBytes: 1 << 20,
      maxEventsPerRun: 5,
      now: clock,
    });
    await events.append('followed', [started('followed')]);
    const seen: string[] = [];
    const stop = new AbortController();
    const following = (async () => {
      for await (const entry of events.follow('followed', { after: null, wait: true, signal: stop.signal }))
        seen.push(entry.id);
    })();
    await store.save(record('newer', 'alice'));
    await following;
    expect(seen).to.deep.equal([`${NOW}-0`]);
  });
});
