/**
 * The sliding windows of the provider rate limits (docs/inference.md "Rate limits"), in memory and in real Redis (three
 * connections standing for three processes on one unique prefix), on short holds: no span of one hold admits more
 * than the limit, a refusal says how long until the oldest entries whose leaving makes room have left, corrections
 * keep an entry's admission time, a restamp (the call's request leaving) counts it from then on, a give-back frees
 * room only while the entry is still counted, and a Redis log falls back to a memory one while Redis fails.
 *
 * Times are bracketed: an admission happened between the local clock reads before and after its call, so each check
 * holds whatever the scheduling delays.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import {
  type SlidingWindow,
  slidingWindow,
  type WindowEntry,
} from '../../../shared/inference/rate-limits/sliding-window.js';
import { freePort } from '../../helpers/processes.js';
import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from '../../helpers/redis.js';

/** An admission, bracketed by the local clock. */
interface Taken {
  entry: WindowEntry;
  before: number;
  after: number;
}

/** A refusal, bracketed by the local clock. */
interface Refused {
  waitMs: number;
  before: number;
  after: number;
}

async function attempt(window: SlidingWindow, scope: string, weight: number): Promise<Taken | Refused> {
  const before = performance.now();
  const answer = await window.take(scope, weight);
  const after = performance.now();
  return 'waitMs' in answer ? { waitMs: answer.waitMs, before, after } : { entry: answer, before, after };
}

async function admitted(window: SlidingWindow, scope: string, weight = 1): Promise<Taken> {
  const answer = await attempt(window, scope, weight);
  if ('waitMs' in answer) throw new Error(`expected an admission, got a wait of ${answer.waitMs} ms`);
  return answer;
}

async function refused(window: SlidingWindow, scope: string, weight = 1): Promise<Refused> {
  const answer = await attempt(window, scope, weight);
  if (!('waitMs' in answer)) throw new Error('expected a refusal');
  expect(answer.waitMs).to.be.above(0);
  return answer;
}

/**
 * The resolution of the Redis windows' clock (`TIME` floored to the millisecond; the memory windows' clock is finer):
 * an entry stamped T may have been taken up to 1 ms after T, so two entries one hold apart on that clock may be up to
 * 1 ms less than a hold apart in real time.
 */
const CLOCK_RESOLUTION_MS = 1;

/**
 * The most admissions that surely happened within one span of `holdMs` on the windows' millisecond clock: those that
 * started no earlier than one of them started and ended less than a hold (less the clock's resolution) after it.
 */
function mostSurelyWithin(taken: readonly Taken[], holdMs: number): number {
  let most = 0;
  for (const first of taken) {
    const inside = taken.filter(
      (other) => other.before >= first.before && other.after < first.before + holdMs - CLOCK_RESOLUTION_MS,
    );
    most = Math.max(most, inside.length);
  }
  return most;
}

/** Bounds of a refusal's wait for an entry to leave: after its admission's end plus the hold, before its start's. */
function expectWaitFor(refusal: Refused, oldest: Taken, holdMs: number): void {
  expect(refusal.waitMs).to.be.at.most(Math.ceil(oldest.after + holdMs - refusal.before) + 1);
  expect(refusal.waitMs).to.be.at.least(Math.floor(oldest.before + holdMs - refusal.after) - 1);
}

interface Callers {
  /** The windows of three callers sharing one log (three processes in Redis; one process's callers in memory). */
  windows(name: string, limit: number, holdMs: number): SlidingWindow[];
  close(): Promise<void>;
}

const STORES: { name: string; open: () => Callers }[] = [
  {
    name: 'in memory',
    open: () => ({
      windows: (name, limit, holdMs) => {
        const window = slidingWindow({ kind: 'memory' }, name, limit, holdMs);
        return [window, window, window];
      },
      close: async () => undefined,
    }),
  },
  {
    name: 'in Redis, shared by three connections',
    open: () => {
      const prefix = uniquePrefix();
      const clients = [new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL), new Redis(TEST_REDIS_URL)];
      return {
        windows: (name, limit, holdMs) =>
          clients.map((client) => slidingWindow({ kind: 'redis', client, keyPrefix: prefix }, name, limit, holdMs)),
        close: async () => {
          for (const client of clients) client.disconnect();
          await deletePrefix(prefix);
        },
      };
    },
  },
];

describe('sliding-window rate limits', () => {
  for (const store of STORES) {
    describe(store.name, () => {
      let callers: Callers;

      beforeEach(() => {
        callers = store.open();
      });

      afterEach(() => callers.close());

      it('should admit at most the limit within any span of one hold, however many callers push', async function () {
        this.timeout(10000);
        const holdMs = 400;
        const windows = callers.windows('requests', 4, holdMs);
        const taken: Taken[] = [];
        const waits: number[] = [];
        const until = performance.now() + 3 * holdMs + 100;
        await Promise.all(
          windows.map(async (window) => {
            while (performance.now() < until) {
              const answer = await attempt(window, 'pushed', 1);
              if ('entry' in answer) taken.push(answer);
              else {
                waits.push(answer.waitMs);
                await sleep(answer.waitMs);
              }
            }
          }),
        );
        expect(mostSurelyWithin(taken, holdMs)).to.be.at.most(4);
        expect(taken.length).to.be.at.least(8);
        expect(waits.length).to.be.above(0);
        for (const wait of waits) expect(wait).to.be.within(1, holdMs);
      });

      it('should free room entry by entry as the oldest leave, not a whole window at once', async () => {
        const holdMs = 600;
        const [window] = callers.windows('requests', 3, holdMs);
        const first = await admitted(window!, 'sliding');
        await sleep(250);
        const second = await admitted(window!, 'sliding');
        await admitted(window!, 'sliding');
        const full = await refused(window!, 'sliding');
        expectWaitFor(full, first, holdMs);
        await sleep(full.waitMs);
        await admitted(window!, 'sliding');
        // The first entry has left; the second and third, taken 250 ms later, still count until the second leaves.
        expectWaitFor(await refused(window!, 'sliding'), second, holdMs);
      });

      it('should take nothing on a refusal and weigh each entry, a correction keeping its admission time', async () => {
        const holdMs = 800;
        const [window, other] = callers.windows('tokens', 100, holdMs);
        const estimated = await admitted(window!, 'weighed', 70);
        await refused(other!, 'weighed', 50);
        await admitted(other!, 'weighed', 30);
        await estimated.entry.reweigh(20);
        await admitted(window!, 'weighed', 50);
        const full = await refused(other!, 'weighed', 1);
        expectWaitFor(full, estimated, holdMs);

        const under = await admitted(window!, 'corrected-up', 10);
        await admitted(other!, 'corrected-up', 10);
        await under.entry.reweigh(100);
        expectWaitFor(await refused(other!, 'corrected-up', 1), under, holdMs);
      });

      it('should count a restamped entry from its restamp, adding back one that had left', async () => {
        const holdMs = 500;
        const [window, other] = callers.windows('requests', 2, holdMs);
        const admittedEarly = await admitted(window!, 'restamped');
        await sleep(200);
        const before = performance.now();
        await admittedEarly.entry.restamp();
        await admittedEarly.entry.restamp();
        const sent = { ...admittedEarly, before, after: performance.now() };
        await admitted(other!, 'restamped');
        expectWaitFor(await refused(other!, 'restamped'), sent, holdMs);

        const stalled = await admitted(window!, 'stalled');
        await sleep(holdMs + 50);
        await stalled.entry.restamp();
        await admitted(other!, 'stalled');
        await refused(window!, 'stalled');
        const cancelled = await admitted(window!, 'cancelled');
        await cancelled.entry.remove();
        await cancelled.entry.restamp();
        await admitted(other!, 'cancelled');
        await admitted(other!, 'cancelled');
      });

      it('should give back a removed entry while it counts, and nothing once it has left', async () => {
        const holdMs = 300;
        const [window, other] = callers.windows('requests', 2, holdMs);
        const cancelled = await admitted(window!, 'given-back');
        await admitted(other!, 'given-back');
        await refused(other!, 'given-back');
        await cancelled.entry.remove();
        await cancelled.entry.remove();
        await admitted(other!, 'given-back');
        await refused(window!, 'given-back');

        const late = await admitted(window!, 'late');
        await sleep(holdMs + 50);
        await admitted(other!, 'late');
        await admitted(window!, 'late');
        await late.entry.remove();
        await late.entry.reweigh(5);
        await refused(other!, 'late');
      });
    });
  }

  describe('in Redis', () => {
    it('should keep each log in two keys that expire one hold after the last admission', async () => {
      const prefix = uniquePrefix();
      const client = new Redis(TEST_REDIS_URL);
      try {
        const window = slidingWindow({ kind: 'redis', client, keyPrefix: prefix }, 'tokens', 100, 300);
        await admitted(window, 'openai/gpt-4o', 40);
        const log = `${prefix}:ratelimit:tokens:{openai/gpt-4o}`;
        expect(await client.zcard(log)).to.equal(1);
        expect(await client.get(`${log}:sum`)).to.equal('40');
        expect(await client.pttl(log)).to.be.within(1, 300);
        expect(await client.pttl(`${log}:sum`)).to.be.within(1, 300);
        await sleep(400);
        expect(await client.exists(log, `${log}:sum`)).to.equal(0);
      } finally {
        client.disconnect();
        await deletePrefix(prefix);
      }
    });

    it('should recompute a lost sum from the log', async () => {
      const prefix = uniquePrefix();
      const client = new Redis(TEST_REDIS_URL);
      try {
        const window = slidingWindow({ kind: 'redis', client, keyPrefix: prefix }, 'tokens', 100, 5000);
        await admitted(window, 'lost', 60);
        await client.del(`${prefix}:ratelimit:tokens:{lost}:sum`);
        await refused(window, 'lost', 50);
        await admitted(window, 'lost', 40);
      } finally {
        client.disconnect();
        await deletePrefix(prefix);
      }
    });

    it('should fall back to a memory log while Redis fails', async () => {
      const client = new Redis({
        host: '127.0.0.1',
        port: await freePort(),
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      try {
        const window = slidingWindow({ kind: 'redis', client, keyPrefix: uniquePrefix() }, 'requests', 2, 5000);
        const first = await admitted(window, 'insured');
        await admitted(window, 'insured');
        await refused(window, 'insured');
        await first.entry.remove();
        await admitted(window, 'insured');
      } finally {
        client.disconnect();
      }
    });
  });
});
