/**
 * Organizations' shares of the provider rate limits (docs/inference.md#organization-shares), in memory on fake time:
 * a share's limits (`ceil(limit × share)`), its own sub-scope beside the whole scope, a gate that keeps a capped
 * organization's waiting calls in a line of their own, and the port that names a run's organization to its calls.
 */
import type { Clock } from '@sinonjs/fake-timers';
import { expect } from 'chai';
import { InferenceRateLimitWaitError } from '../../../shared/errors/index.js';
import { BackendPauses } from '../../../shared/inference/rate-limits/backend-pauses.js';
import { type Admission, CallGate, type ThrottleObserver } from '../../../shared/inference/rate-limits/call-gate.js';
import type { LimiterStore } from '../../../shared/inference/rate-limits/limiter-store.js';
import {
  type ScopeGrant,
  ScopeLimiter,
  type ScopeRefusal,
  type ScopeWindows,
  shareOf,
} from '../../../shared/inference/rate-limits/scope-limiter.js';
import { type RateTenant, tenantInference } from '../../../shared/inference/rate-limits/tenant.js';
import type { InferencePort } from '../../../shared/runtime/index.js';
import { installFakeClock, uninstallFakeClock } from '../../helpers/fake-clock.js';
import { failureOf } from '../../helpers/inference-fixtures.js';

const MEMORY: LimiterStore = { kind: 'memory' };
const WINDOWS: ScopeWindows = { windowSeconds: 1, leaseSeconds: 1, slotPollMs: 20 };
/** How long an entry of {@link WINDOWS} counts: its window and the scope limiter's 1 s allowance for the send. */
const HOLD_MS = 2000;
const QUIET: ThrottleObserver = { admitted: () => undefined, timedOut: () => undefined };

/** The grant a try must have answered. */
function granted(result: ScopeGrant | ScopeRefusal): ScopeGrant {
  if ('reason' in result) throw new Error(`expected a grant, got a refusal for ${result.reason}`);
  return result;
}

describe('organization shares of the provider rate limits', () => {
  let clock: Clock | undefined;
  const fakeTime = (): Clock => {
    clock = installFakeClock();
    return clock;
  };
  afterEach(() => {
    if (clock) uninstallFakeClock(clock);
    clock = undefined;
  });

  describe('a share of a limit', () => {
    it('should be ceil(limit × share), at least 1, without binary rounding pushing it one over', () => {
      expect(shareOf(10, 0.5)).to.equal(5);
      expect(shareOf(7, 0.5)).to.equal(4);
      expect(shareOf(10, 0.3)).to.equal(3);
      expect(shareOf(100, 0.07)).to.equal(7);
      expect(shareOf(3, 0.1)).to.equal(1);
      expect(shareOf(60, 1)).to.equal(60);
    });
  });

  describe('scope limiter', () => {
    it("should count each organization's share in a sub-scope of its own, beside the whole scope", async () => {
      const scope = new ScopeLimiter(MEMORY, 'shared-requests', { requests_per_minute: 4 }, WINDOWS);
      granted(await scope.tryAcquireShare('org_a', 0.5, 0));
      granted(await scope.tryAcquireShare('org_a', 0.5, 0));
      expect(await scope.tryAcquireShare('org_a', 0.5, 0)).to.include({ reason: 'org_requests' });
      granted(await scope.tryAcquireShare('org_b', 0.5, 0));
      // the shares count apart from the whole scope, which still has all its room
      for (let call = 0; call < 4; call++) granted(await scope.tryAcquire(0));
      expect(await scope.tryAcquire(0)).to.include({ reason: 'requests' });
    });

    it("should scale the tokens and the slots of a share, and give a refused share's entries back", async () => {
      const scope = new ScopeLimiter(
        MEMORY,
        'shared-tokens',
        { requests_per_minute: 10, tokens_per_minute: 100, max_concurrent: 4 },
        WINDOWS,
      );
      const held = granted(await scope.tryAcquireShare('org_a', 0.5, 40));
      expect(await scope.tryAcquireShare('org_a', 0.5, 20), '40 + 20 over the share of 50').to.include({
        reason: 'org_tokens',
      });
      const second = granted(await scope.tryAcquireShare('org_a', 0.5, 10));
      expect(await scope.tryAcquireShare('org_a', 0.5, 0), 'both slots of the share held').to.include({
        reason: 'org_concurrency',
      });
      await held.settle(5);
      await second.settle(5);
      // the refused tries took nothing, and the settled calls were corrected to 5 tokens each: 40 more fit the 50
      granted(await scope.tryAcquireShare('org_a', 0.5, 40));
      expect(await scope.tryAcquireShare('org_a', 0.5, 1)).to.include({ reason: 'org_tokens' });
    });
  });

  describe('call gate', () => {
    it("should hold a flooding organization to its share while another organization's calls go through", async () => {
      const time = fakeTime();
      const scope = new ScopeLimiter(MEMORY, 'flood', { requests_per_minute: 4 }, WINDOWS);
      const gate = new CallGate('openai', 'gpt', [scope], new BackendPauses(MEMORY), 10_000, QUIET, 0.5);
      const order: string[] = [];
      const call = async (tenant: RateTenant, name: string) => {
        const admission = await gate.enter(0, tenant);
        order.push(name);
        await admission.settle(0);
      };
      const flood = Promise.all([1, 2, 3, 4, 5].map((index) => call({ key: 'org_a' }, `a${index}`)));
      await time.tickAsync(0);
      const other = Promise.all([1, 2].map((index) => call({ key: 'org_b' }, `b${index}`)));
      await time.tickAsync(0);
      expect(order, 'A at its share of 2, B behind none of its waiting calls').to.deep.equal(['a1', 'a2', 'b1', 'b2']);
      await other;
      await time.tickAsync(HOLD_MS);
      expect(order.slice(4), 'the next window: A again at its share').to.deep.equal(['a3', 'a4']);
      await time.tickAsync(HOLD_MS);
      await flood;
      expect(order.slice(6)).to.deep.equal(['a5']);
    });

    it('should let an organization use the whole limit at share 1, and a share of its own override the default', async () => {
      const scope = new ScopeLimiter(MEMORY, 'whole', { requests_per_minute: 4 }, WINDOWS);
      const uncapped = new CallGate('openai', 'gpt', [scope], new BackendPauses(MEMORY), 0, QUIET);
      const admissions: Admission[] = [];
      for (let call = 0; call < 4; call++) admissions.push(await uncapped.enter(0, { key: 'org_a' }));
      expect(await failureOf(uncapped.enter(0, { key: 'org_b' }))).to.be.instanceOf(InferenceRateLimitWaitError);

      const other = new ScopeLimiter(MEMORY, 'own-share', { requests_per_minute: 4 }, WINDOWS);
      const capped = new CallGate('openai', 'gpt', [other], new BackendPauses(MEMORY), 0, QUIET, 0.5);
      await capped.enter(0, { key: 'org_a', share: 0.25 });
      const refused = await failureOf(capped.enter(0, { key: 'org_a', share: 0.25 }));
      expect(refused).to.be.instanceOf(InferenceRateLimitWaitError);
      expect(refused.message).to.include("waiting for its organization's share of its requests limit");
      await capped.enter(0, { key: 'org_b', share: 1 });
      await capped.enter(0, { key: 'org_b', share: 1 });
      await capped.enter(0);
    });

    it('should count the waits a share caused under their own reasons', async () => {
      const time = fakeTime();
      const reasons: string[] = [];
      const observer: ThrottleObserver = {
        admitted: (_backend, _model, _waited, held) => reasons.push(...held),
        timedOut: (_backend, _model, reason) => reasons.push(`timed_out:${reason}`),
      };
      const scope = new ScopeLimiter(MEMORY, 'counted', { requests_per_minute: 2 }, WINDOWS);
      const gate = new CallGate('openai', 'gpt', [scope], new BackendPauses(MEMORY), 10_000, observer, 0.5);
      await gate.enter(0, { key: 'org_a' });
      const waiting = gate.enter(0, { key: 'org_a' });
      await time.tickAsync(HOLD_MS);
      await waiting;
      expect(reasons).to.deep.equal(['org_requests']);
    });
  });

  describe('the port of an organization', () => {
    it('should name the organization to every call made through it, and to no other call', async () => {
      const seen: (RateTenant | undefined)[] = [];
      const usage = { model: 'm', input_tokens: 1, output_tokens: 1 };
      const port: InferencePort = {
        name: 'recording',
        isMock: true,
        generateText: async (request) => {
          seen.push(request.tenant);
          return { text: 'hi', usage };
        },
        generateObject: async (request) => {
          seen.push(request.tenant);
          return { object: {}, usage };
        },
        search: async (request) => {
          seen.push(request.tenant);
          return { result: { answer: 'a', sources: [] }, usage };
        },
      };
      const tenant = { key: 'org_a', share: 0.5 };
      const scoped = tenantInference(port, tenant);
      expect(scoped.generateImages, 'no capability the port lacks').to.equal(undefined);
      expect(scoped.quote).to.equal(undefined);
      await scoped.generateText({ pipeCode: 'p', userPrompt: 'u' });
      await scoped.generateObject({
        pipeCode: 'p',
        userPrompt: 'u',
        schemaName: 's',
        jsonSchema: {},
        validate: () => [],
      });
      await scoped.search!({ pipeCode: 'p', query: 'q' });
      await port.generateText({ pipeCode: 'p', userPrompt: 'u' });
      expect(seen).to.deep.equal([tenant, tenant, tenant, undefined]);
    });
  });
});
