/**
 * The parts of the provider rate limits (docs/inference.md#rate-limits) on short windows: the token estimate,
 * backend pauses (in memory and in real Redis), a scope's all-or-nothing grants, leased slots that free themselves, and
 * the in-order admission of a gate.
 */
import type { Clock } from '@sinonjs/fake-timers';
import { expect } from 'chai';
import { BackendPauses, PAUSE_KNOWLEDGE_MS } from '../../../shared/inference/rate-limits/backend-pauses.js';
import {
  CallGate,
  type ThrottleObserver,
  untagAttempt,
  withAdmission,
} from '../../../shared/inference/rate-limits/call-gate.js';
import type { LimiterStore } from '../../../shared/inference/rate-limits/limiter-store.js';
import { ScopeLimiter, type ScopeWindows } from '../../../shared/inference/rate-limits/scope-limiter.js';
import { estimateLlmTokens, estimatePromptTokens } from '../../../shared/inference/rate-limits/token-estimate.js';
import { installFakeClock, uninstallFakeClock } from '../../helpers/fake-clock.js';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.js';

const MEMORY: LimiterStore = { kind: 'memory' };
const WINDOWS: ScopeWindows = { windowSeconds: 1, leaseSeconds: 1, slotPollMs: 20 };
/** How long an entry of {@link WINDOWS} counts: its window and the scope limiter's 1 s allowance for the send. */
const HOLD_MS = 2000;
const QUIET: ThrottleObserver = { admitted: () => undefined, timedOut: () => undefined };

describe('provider rate limiter', () => {
  /** The memory limiters' time, moved by the tests (installed before each test builds its limiters). */
  let clock: Clock | undefined;
  const fakeTime = (): Clock => {
    clock = installFakeClock();
    return clock;
  };
  afterEach(() => {
    if (clock) uninstallFakeClock(clock);
    clock = undefined;
  });

  describe('token estimate', () => {
    it('should count prompt characters at four a token plus the output allowance', () => {
      const request = { pipeCode: 'p', systemPrompt: 'x'.repeat(10), userPrompt: 'y'.repeat(30) };
      expect(estimateLlmTokens({ ...request, maxTokens: 100 }, 500)).to.equal(110);
      expect(estimateLlmTokens(request, 500)).to.equal(510);
      expect(estimateLlmTokens(request, undefined)).to.equal(1034);
      expect(estimatePromptTokens({ pipeCode: 'p', query: 'q'.repeat(9) })).to.equal(3);
    });
  });

  describe('backend pauses', () => {
    it('should pause a backend for the Retry-After rounded up, never shortening a longer pause', async () => {
      const time = fakeTime();
      const pauses = new BackendPauses(MEMORY);
      expect(await pauses.remainingMs('openai')).to.equal(0);
      await pauses.pause('openai', 1.2);
      expect(await pauses.remainingMs('openai')).to.equal(2000);
      await time.tickAsync(500);
      await pauses.pause('openai', 1);
      expect(await pauses.remainingMs('openai')).to.equal(1500);
      expect(await pauses.remainingMs('anthropic')).to.equal(0);
      await time.tickAsync(1500);
      expect(await pauses.remainingMs('openai')).to.equal(0);
    });

    it('should share a pause between processes through Redis', async () => {
      const prefix = uniquePrefix();
      const clients = [testRedis(), testRedis()];
      try {
        const [one, two] = clients.map((client) => new BackendPauses({ kind: 'redis', client, keyPrefix: prefix }));
        const paused: string[] = [];
        const observed = new BackendPauses({ kind: 'redis', client: clients[0]!, keyPrefix: prefix }, (backend) =>
          paused.push(backend),
        );
        const pausedBy = performance.now();
        // a pause far longer than the test, so it is still on at the last read however slow the machine
        await observed.pause('openai', 600);
        const remaining = await two!.remainingMs('openai');
        // Redis counts the pause on its own clock: at most the 600 s set, less at most the time since it was set
        expect(remaining).to.be.at.most(600_000);
        expect(remaining).to.be.at.least(600_000 - Math.ceil(performance.now() - pausedBy) - 1);
        expect(await one!.remainingMs('openai')).to.be.above(0);
        expect(paused).to.deep.equal(['openai']);
      } finally {
        for (const client of clients) client.disconnect();
        await deletePrefix(prefix);
      }
    });
    it('should read a pause from what it learnt within PAUSE_KNOWLEDGE_MS, its own pause at once, then from Redis again', async () => {
      const prefix = uniquePrefix();
      const clients = [testRedis(), testRedis()];
      try {
        await Promise.all(clients.map((client) => client.ping()));
        const [setter, other] = clients.map(
          (client) => new BackendPauses({ kind: 'redis', client, keyPrefix: prefix }),
        );
        const time = fakeTime();
        expect(await other!.remainingMs('openai')).to.equal(0);
        await setter!.pause('openai', 600);
        expect(await setter!.remainingMs('openai')).to.equal(600_000);
        // learnt a moment ago: not paused, and not looked up again yet
        expect(await other!.remainingMs('openai')).to.equal(0);
        await time.tickAsync(PAUSE_KNOWLEDGE_MS + 1);
        const remaining = await other!.remainingMs('openai');
        expect(remaining).to.be.above(0);
        expect(remaining).to.be.at.most(600_000);
      } finally {
        for (const client of clients) client.disconnect();
        await deletePrefix(prefix);
      }
    });
  });

  describe('scope limiter', () => {
    it('should give back refused tokens so that a smaller call still fits the window', async () => {
      const scope = new ScopeLimiter(MEMORY, 'tokens-scope', { tokens_per_minute: 100 }, WINDOWS);
      const first = await scope.tryAcquire(70);
      expect(first).to.have.property('settle');
      expect(await scope.tryAcquire(50)).to.include({ reason: 'tokens' });
      expect(await scope.tryAcquire(30)).to.have.property('settle');
    });

    it('should take nothing when one limit refuses, and give everything back on cancel', async () => {
      const scope = new ScopeLimiter(MEMORY, 'all-or-none', { requests_per_minute: 2, max_concurrent: 1 }, WINDOWS);
      const held = await scope.tryAcquire(0);
      expect(await scope.tryAcquire(0)).to.include({ reason: 'concurrency' });
      if (!('cancel' in held)) throw new Error('expected a grant');
      await held.cancel();
      const again = await scope.tryAcquire(0);
      expect(again).to.have.property('settle');
      if (!('settle' in again)) throw new Error('expected a grant');
      await again.settle(0);
      const second = await scope.tryAcquire(0);
      if (!('settle' in second)) throw new Error('the refused try and the cancelled grant should have given back');
      await second.settle(0);
      expect(await scope.tryAcquire(0)).to.include({ reason: 'requests' });
    });

    it('should count nothing of a refused call and correct the tokens of a settled one', async () => {
      const scope = new ScopeLimiter(MEMORY, 'corrected', { requests_per_minute: 2, tokens_per_minute: 100 }, WINDOWS);
      const first = await scope.tryAcquire(80);
      if (!('settle' in first)) throw new Error('expected a grant');
      expect(await scope.tryAcquire(50)).to.include({ reason: 'tokens' });
      await first.settle(20);
      expect(await scope.tryAcquire(50)).to.have.property('settle');
      expect(await scope.tryAcquire(1)).to.include({ reason: 'requests' });
    });

    it('should free a slot whose holder never ends its call once the lease expires', async () => {
      const time = fakeTime();
      const scope = new ScopeLimiter(MEMORY, 'leased', { max_concurrent: 1 }, WINDOWS);
      expect(await scope.tryAcquire(0)).to.have.property('settle');
      expect(await scope.tryAcquire(0)).to.include({ reason: 'concurrency' });
      await time.tickAsync(999);
      expect(await scope.tryAcquire(0), 'within the lease').to.include({ reason: 'concurrency' });
      await time.tickAsync(1);
      expect(await scope.tryAcquire(0)).to.have.property('settle');
    });
  });

  describe('call gate', () => {
    it('should admit the calls of a process in the order they came, one per window', async () => {
      const time = fakeTime();
      const scope = new ScopeLimiter(MEMORY, 'ordered', { requests_per_minute: 1 }, WINDOWS);
      const gate = new CallGate('openai', 'gpt', [scope], new BackendPauses(MEMORY), 5000, QUIET);
      const order: number[] = [];
      const admitted = Promise.all(
        [0, 1, 2].map(async (index) => {
          const admission = await gate.enter(0);
          order.push(index);
          await admission.settle(0);
        }),
      );
      await time.tickAsync(HOLD_MS - 1);
      expect(order, 'while the first counts').to.deep.equal([0]);
      await time.tickAsync(1);
      expect(order, 'once the first left the window').to.deep.equal([0, 1]);
      await time.tickAsync(HOLD_MS);
      await admitted;
      expect(order).to.deep.equal([0, 1, 2]);
    });

    it('should count a call from when its request leaves, marked once by its tagged attempts', async () => {
      const time = fakeTime();
      const scope = new ScopeLimiter(MEMORY, 'sent', { requests_per_minute: 1 }, WINDOWS);
      const control = new ScopeLimiter(MEMORY, 'control', { requests_per_minute: 1 }, WINDOWS);
      const gate = new CallGate('openai', 'gpt', [scope], new BackendPauses(MEMORY), 5000, QUIET);
      expect(untagAttempt({ headers: { accept: '*/*' } }).admission, 'an untagged attempt').to.equal(undefined);
      const admission = await gate.enter(0);
      expect(await control.tryAcquire(0)).to.have.property('settle');
      await time.tickAsync(300);
      await withAdmission(admission, async (tagged) => {
        await untagAttempt({ headers: tagged.headers }).admission!.sent();
        await untagAttempt({ headers: tagged.headers }).admission!.sent();
      });
      await admission.settle(0);
      const sentRefusal = await scope.tryAcquire(0);
      const controlRefusal = await control.tryAcquire(0);
      if (!('reason' in sentRefusal) || !('reason' in controlRefusal)) throw new Error('expected refusals');
      // The re-dated entry leaves as much later than the control's as it was re-dated after it, once.
      expect(controlRefusal.waitMs).to.equal(HOLD_MS - 300);
      expect(sentRefusal.waitMs).to.equal(HOLD_MS);
    });

    it("should take its tag off an attempt's headers, and know the call only while it is under way", async () => {
      const gate = new CallGate('openai', 'gpt', [], new BackendPauses(MEMORY), 5000, QUIET);
      const admission = await gate.enter(0);
      const tagged = await withAdmission(admission, async (call) => {
        const attempt = untagAttempt({ method: 'POST', headers: { ...call.headers, authorization: 'Bearer k' } });
        expect(attempt.admission).to.equal(admission);
        expect(attempt.init?.method).to.equal('POST');
        expect([...new Headers(attempt.init?.headers).entries()]).to.deep.equal([['authorization', 'Bearer k']]);
        return call;
      });
      expect(Object.keys(tagged.headers)).to.deep.equal(['x-mthds-admission']);
      expect(untagAttempt({ headers: tagged.headers }).admission, 'once the call ended').to.equal(undefined);
    });

    it("should spare a call's first attempt a second pause lookup only right after its admission", async () => {
      const time = fakeTime();
      const gate = new CallGate('openai', 'gpt', [], new BackendPauses(MEMORY), 5000, QUIET);
      const needed = (headers: Readonly<Record<string, string>>) =>
        untagAttempt({ headers }).admission?.pauseCheckNeeded() ?? true;
      expect(needed({}), 'outside any admission').to.equal(true);
      const fresh = await gate.enter(0);
      const seen = await withAdmission(fresh, async ({ headers }) => {
        const first = needed(headers);
        await untagAttempt({ headers }).admission!.sent();
        return [first, needed(headers)];
      });
      expect(seen, 'first attempt, then a retry').to.deep.equal([false, true]);
      const late = await gate.enter(0);
      expect(await withAdmission(late, async ({ headers }) => needed(headers)), 'first attempt at once').to.equal(
        false,
      );
      const later = await gate.enter(0);
      await time.tickAsync(11);
      expect(await withAdmission(later, async ({ headers }) => needed(headers)), 'first attempt 11 ms later').to.equal(
        true,
      );
    });

    it('should admit a call of a route without limits, its backend unpaused, without arming a wait timer', async () => {
      const waits: number[] = [];
      const observer: ThrottleObserver = {
        admitted: (_backend, _model, waitedMs) => waits.push(waitedMs),
        timedOut: () => undefined,
      };
      const gate = new CallGate('openai', 'gpt', [], new BackendPauses(MEMORY), 5000, observer);
      const armed: number[] = [];
      const setTimer = globalThis.setTimeout;
      globalThis.setTimeout = ((handler: () => void, ms?: number) => {
        armed.push(ms ?? 0);
        return setTimer(handler, ms);
      }) as typeof setTimeout;
      try {
        await (await gate.enter(0)).settle(0);
      } finally {
        globalThis.setTimeout = setTimer;
      }
      expect(armed).to.deep.equal([]);
      expect(waits).to.have.length(1);
    });

    it('should wait out a pause before admitting', async () => {
      const time = fakeTime();
      const pauses = new BackendPauses(MEMORY);
      const waits: number[] = [];
      const observer: ThrottleObserver = {
        admitted: (_backend, _model, waitedMs) => waits.push(waitedMs),
        timedOut: () => undefined,
      };
      const gate = new CallGate('openai', 'gpt', [], pauses, 5000, observer);
      await pauses.pause('openai', 1);
      const admission = gate.enter(0);
      await time.tickAsync(999);
      expect(waits, 'while paused').to.deep.equal([]);
      await time.tickAsync(1);
      await (await admission).settle(0);
      expect(waits).to.deep.equal([1000]);
    });
  });
});
