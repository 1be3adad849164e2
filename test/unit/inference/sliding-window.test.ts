/**
 * The sliding windows of the provider rate limits (docs/inference.md#rate-limits), in memory and in real Redis (three
 * connections standing for three processes on one unique prefix): no span of one hold admits more than the limit, a
 * refusal says how long until the oldest entries whose leaving makes room have left, corrections keep an entry's
 * admission time, a restamp (the call's request leaving) counts it from then on, a give-back frees room only while the
 * entry is still counted, and a Redis log falls back to a memory one while Redis fails.
 *
 * No test waits for an entry to leave: each moves the windows' clock instead. The memory windows read
 * `performance.now`, which a fake clock replaces; the Redis windows read Redis `TIME`, which nothing can move, so their
 * logs are aged instead (every entry's score moved back by the same amount, which the scripts cannot tell from their
 * clock moving ahead, since they only ever compare scores with `TIME`). Holds are a minute long, so the keys' real
 * expiry never comes during a test. Times are bracketed: an admission happened between the clock reads before and
 * after its call, so each check holds whatever the scheduling delays.
 */
import type { Clock } from '@sinonjs/fake-timers';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import {
  type SlidingWindow,
  slidingWindow,
  type WindowEntry,
} from '../../../shared/inference/rate-limits/sliding-window.js';
import { installFakeClock, uninstallFakeClock } from '../../helpers/fake-clock.js';
import { freePort } from '../../helpers/processes.js';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.js';

/** How long an entry counts in these tests, in ms: far longer than a test lasts, so no Redis key expires during one. */
const HOLD_MS = 60_000;

/** An admission, bracketed by the windows' clock. */
interface Taken {
  entry: WindowEntry;
  before: number;
  after: number;
}

/** A refusal, bracketed by the windows' clock. */
interface Refused {
  waitMs: number;
  before: number;
  after: number;
}

async function attempt(
  window: SlidingWindow,
  scope: string,
  weight: number,
  now: () => number = () => performance.now(),
): Promise<Taken | Refused> {
  const before = now();
  const answer = await window.take(scope, weight);
  const after = now();
  return 'waitMs' in answer ? { waitMs: answer.waitMs, before, after } : { entry: answer, before, after };
}

async function admitted(window: SlidingWindow, scope: string, weight = 1, now?: () => number): Promise<Taken> {
  const answer = await attempt(window, scope, weight, now);
  if ('waitMs' in answer) throw new Error(`expected an admission, got a wait of ${answer.waitMs} ms`);
  return answer;
}

async function refused(window: SlidingWindow, scope: string, weight = 1, now?: () => number): Promise<Refused> {
  const answer = await attempt(window, scope, weight, now);
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
  /** The windows' clock, in ms: its origin is arbitrary, only differences mean anything. */
  now(): number;
  /**
   * Move the windows' clock ahead: every entry taken so far is that much older.
   * @param ms - how far, in ms
   */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Age every sliding log under a prefix by `ms`: each entry's score (its admission time on Redis's clock) moves back.
 * One script per log, so no take interleaves with a half-aged log.
 */
const AGE_LOG = `
local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
for index = 1, #entries, 2 do
  redis.call('ZADD', KEYS[1], tonumber(entries[index + 1]) - tonumber(ARGV[1]), entries[index])
end
return #entries / 2
`;

async function ageLogs(client: Redis, prefix: string, ms: number): Promise<void> {
  const keys = await client.keys(`${prefix}:ratelimit:*`);
  for (const key of keys) if ((await client.type(key)) === 'zset') await client.eval(AGE_LOG, 1, key, ms);
}

const STORES: { name: string; open: () => Callers }[] = [
  {
    name: 'in memory',
    open: () => {
      const clock: Clock = installFakeClock();
      return {
        windows: (name, limit, holdMs) => {
          const window = slidingWindow({ kind: 'memory' }, name, limit, holdMs);
          return [window, window, window];
        },
        now: () => performance.now(),
        advance: async (ms) => {
          clock.tick(ms);
        },
        close: async () => uninstallFakeClock(clock),
      };
    },
  },
  {
    name: 'in Redis, shared by three connections',
    open: () => {
      const prefix = uniquePrefix();
      const clients = [testRedis(), testRedis(), testRedis()];
      let aheadMs = 0;
      return {
        windows: (name, limit, holdMs) =>
          clients.map((client) => slidingWindow({ kind: 'redis', client, keyPrefix: prefix }, name, limit, holdMs)),
        now: () => performance.now() + aheadMs,
        advance: async (ms) => {
          await ageLogs(clients[0]!, prefix, ms);
          aheadMs += ms;
        },
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
      /** Windows of `callers`, their attempts bracketed by its clock. */
      const take = {
        admitted: (window: SlidingWindow, scope: string, weight = 1) => admitted(window, scope, weight, callers.now),
        refused: (window: SlidingWindow, scope: string, weight = 1) => refused(window, scope, weight, callers.now),
      };

      beforeEach(() => {
        callers = store.open();
      });

      afterEach(() => callers.close());

      it('should admit at most the limit within any span of one hold, however many callers push', async () => {
        const windows = callers.windows('requests', 4, HOLD_MS);
        const taken: Taken[] = [];
        const waits: number[] = [];
        const start = callers.now();
        const until = start + 3 * HOLD_MS + HOLD_MS / 4;
        // when each caller tries next, on the windows' clock: again at once after an admission; after a refusal, the
        // first caller (impatient) every eighth of a hold, the others after the wait it names. The clock moves to the
        // earliest of them once every caller waits.
        const due = windows.map(() => start);
        for (let next = start; next < until; next = Math.min(...due)) {
          if (next > callers.now()) await callers.advance(next - callers.now());
          await Promise.all(
            windows.map(async (window, index) => {
              if (due[index]! > callers.now()) return;
              const answer = await attempt(window, 'pushed', 1, callers.now);
              if ('entry' in answer) taken.push(answer);
              else {
                waits.push(answer.waitMs);
                due[index] = answer.after + (index === 0 ? Math.min(answer.waitMs, HOLD_MS / 8) : answer.waitMs);
              }
            }),
          );
        }
        expect(mostSurelyWithin(taken, HOLD_MS)).to.be.at.most(4);
        // the limit in each of the four holds begun before the end
        expect(taken).to.have.length(16);
        expect(waits.length).to.be.above(0);
        for (const wait of waits) expect(wait).to.be.within(1, HOLD_MS);
      });

      it('should free room entry by entry as the oldest leave, not a whole window at once', async () => {
        const [window] = callers.windows('requests', 3, HOLD_MS);
        const first = await take.admitted(window!, 'sliding');
        await callers.advance(HOLD_MS / 4);
        const second = await take.admitted(window!, 'sliding');
        await take.admitted(window!, 'sliding');
        const full = await take.refused(window!, 'sliding');
        expectWaitFor(full, first, HOLD_MS);
        await callers.advance(full.waitMs);
        await take.admitted(window!, 'sliding');
        // The first entry has left; the second and third, taken a quarter hold later, still count until the second
        // leaves.
        expectWaitFor(await take.refused(window!, 'sliding'), second, HOLD_MS);
      });

      it('should take nothing on a refusal and weigh each entry, a correction keeping its admission time', async () => {
        const [window, other] = callers.windows('tokens', 100, HOLD_MS);
        const estimated = await take.admitted(window!, 'weighed', 70);
        await take.refused(other!, 'weighed', 50);
        await take.admitted(other!, 'weighed', 30);
        await estimated.entry.reweigh(20);
        await take.admitted(window!, 'weighed', 50);
        const full = await take.refused(other!, 'weighed', 1);
        expectWaitFor(full, estimated, HOLD_MS);

        const under = await take.admitted(window!, 'corrected-up', 10);
        await take.admitted(other!, 'corrected-up', 10);
        await under.entry.reweigh(100);
        expectWaitFor(await take.refused(other!, 'corrected-up', 1), under, HOLD_MS);
      });

      it('should count a restamped entry from its restamp, adding back one that had left', async () => {
        const [window, other] = callers.windows('requests', 2, HOLD_MS);
        const admittedEarly = await take.admitted(window!, 'restamped');
        await callers.advance(HOLD_MS / 3);
        const before = callers.now();
        await admittedEarly.entry.restamp();
        await admittedEarly.entry.restamp();
        const sent = { ...admittedEarly, before, after: callers.now() };
        await take.admitted(other!, 'restamped');
        expectWaitFor(await take.refused(other!, 'restamped'), sent, HOLD_MS);

        const stalled = await take.admitted(window!, 'stalled');
        await callers.advance(HOLD_MS + 50);
        await stalled.entry.restamp();
        await take.admitted(other!, 'stalled');
        await take.refused(window!, 'stalled');
        const cancelled = await take.admitted(window!, 'cancelled');
        await cancelled.entry.remove();
        await cancelled.entry.restamp();
        await take.admitted(other!, 'cancelled');
        await take.admitted(other!, 'cancelled');
      });

      it('should give back a removed entry while it counts, and nothing once it has left', async () => {
        const [window, other] = callers.windows('requests', 2, HOLD_MS);
        const cancelled = await take.admitted(window!, 'given-back');
        await take.admitted(other!, 'given-back');
        await take.refused(other!, 'given-back');
        await cancelled.entry.remove();
        await cancelled.entry.remove();
        await take.admitted(other!, 'given-back');
        await take.refused(window!, 'given-back');

        const late = await take.admitted(window!, 'late');
        await callers.advance(HOLD_MS + 50);
        await take.admitted(other!, 'late');
        await take.admitted(window!, 'late');
        await late.entry.remove();
        await late.entry.reweigh(5);
        await take.refused(other!, 'late');
      });
    });
  }

  describe('in Redis', () => {
    it('should keep each log in two keys that expire one hold after the last admission', async () => {
      const prefix = uniquePrefix();
      const client = testRedis();
      try {
        const window = slidingWindow({ kind: 'redis', client, keyPrefix: prefix }, 'tokens', 100, HOLD_MS);
        const { before } = await admitted(window, 'openai/gpt-4o', 40);
        const log = `${prefix}:ratelimit:tokens:{openai/gpt-4o}`;
        expect(await client.zcard(log)).to.equal(1);
        expect(await client.get(`${log}:sum`)).to.equal('40');
        // set to one hold at the admission: at most that, less at most the time since
        for (const key of [log, `${log}:sum`]) {
          const ttl = await client.pttl(key);
          expect(ttl, key).to.be.at.most(HOLD_MS);
          expect(ttl, key).to.be.at.least(HOLD_MS - Math.ceil(performance.now() - before) - CLOCK_RESOLUTION_MS);
        }
      } finally {
        client.disconnect();
        await deletePrefix(prefix);
      }
    });

    it('should recompute a lost sum from the log', async () => {
      const prefix = uniquePrefix();
      const client = testRedis();
      try {
        const window = slidingWindow({ kind: 'redis', client, keyPrefix: prefix }, 'tokens', 100, HOLD_MS);
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
        const window = slidingWindow({ kind: 'redis', client, keyPrefix: uniquePrefix() }, 'requests', 2, HOLD_MS);
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
