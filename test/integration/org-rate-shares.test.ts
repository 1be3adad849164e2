/**
 * Organizations' shares of the cluster-wide provider rate limits (docs/inference.md#organization-shares) through the
 * real routed backend: two routed backends — two simulated workers, each with its own Redis connection — share one
 * real Redis under a unique key prefix and call a fake OpenAI-compatible server on 127.0.0.1; each organization's
 * calls go through the port of its runs (`tenantInference`). The per-minute window is shortened to 2 s.
 */
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import type { RateLimits } from '../../shared/inference/config/inference-config.js';
import {
  type InferenceConfig,
  loadInferenceConfig,
  tenantInference,
  throttleMetrics,
} from '../../shared/inference/index.js';
import { createRoutedBackend, type RoutedBackend } from '../../shared/inference/routed-backend.js';
import { Metrics } from '../../shared/observability/index.js';
import type { InferencePort } from '../../shared/runtime/index.js';
import { mostInFlight, mostWithin } from '../helpers/arrivals.js';
import {
  completion,
  type FakeOpenAiServer,
  type RecordedRequest,
  startFakeOpenAiServer,
} from '../helpers/fake-openai-server.js';
import { arrivalGate } from '../helpers/fake-provider-server.js';
import { pollUntil } from '../helpers/poll.js';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.js';

const WINDOW_SECONDS = 6;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const MODEL = 'gpt-4o-mini';

/** The organization a request was made for: its prompt names it. */
function organizationOf(request: RecordedRequest): string {
  const prompt = request.body.messages?.at(-1)?.content ?? '';
  return /for (org_\w+)/.exec(prompt)?.[1] ?? 'none';
}

describe('organization shares of the provider rate limits (real Redis, fake provider)', function () {
  this.timeout(30000);
  let fake: FakeOpenAiServer;
  let prefix: string;
  const connections: Redis[] = [];

  before(async () => {
    // The SDK is imported on a backend's first call: import it once here, so that no measured call is admitted long
    // before it reaches the provider.
    const warm = await startFakeOpenAiServer();
    await createRoutedBackend({
      config: loadInferenceConfig(undefined, { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: warm.baseUrl }),
      timeoutMs: 10000,
      maxRetries: 0,
      mockLatencyMs: 0,
      rateLimits: { store: { kind: 'memory' }, waitMs: 1000 },
    }).generateText({ pipeCode: 'warm', modelRef: MODEL, userPrompt: 'Warm up.' });
    await warm.close();
  });

  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
    prefix = uniquePrefix();
  });

  afterEach(async () => {
    await fake.close();
    for (const connection of connections.splice(0)) connection.disconnect();
    await deletePrefix(prefix);
  });

  /** The packaged configuration pointed at the fake, with limits on the OpenAI backend. */
  function configWith(limits: RateLimits): InferenceConfig {
    const config = loadInferenceConfig(undefined, { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl });
    config.backends['openai']!.rate_limits = limits;
    return config;
  }

  /** One simulated worker: its own routed backend and Redis connection on the shared prefix. */
  function worker(config: InferenceConfig, orgShare: number | undefined, metrics?: Metrics): RoutedBackend {
    const client = testRedis({ maxRetriesPerRequest: 1 });
    connections.push(client);
    return createRoutedBackend({
      config,
      timeoutMs: 10000,
      maxRetries: 0,
      mockLatencyMs: 0,
      rateLimits: {
        store: { kind: 'redis', client, keyPrefix: prefix },
        waitMs: 20000,
        windowSeconds: WINDOW_SECONDS,
        ...(orgShare === undefined ? {} : { orgShare }),
        ...(metrics ? { observer: throttleMetrics(metrics) } : {}),
      },
    });
  }

  /** `count` calls of one organization, spread over the workers, each through the port of its runs. */
  function calls(workers: readonly InferencePort[], organization: string, count: number) {
    return Promise.all(
      Array.from({ length: count }, (_, index) =>
        tenantInference(workers[index % workers.length]!, { key: organization }).generateText({
          pipeCode: 'greet',
          modelRef: MODEL,
          userPrompt: `Say hello for ${organization}.`,
        }),
      ),
    );
  }

  const arrivalsOf = (organization: string) =>
    fake.requests.filter((request) => organizationOf(request) === organization).map((request) => request.receivedAt);

  it("should hold a flooding organization to half the requests while the other's calls go through at once", async () => {
    const metrics = new Metrics();
    const config = configWith({ requests_per_minute: 4 });
    // both count in one registry: which worker's calls of A wait for its share is a race between them
    const workers = [worker(config, 0.5, metrics), worker(config, 0.5, metrics)];
    const flood = calls(workers, 'org_a', 4);
    // A's share of 2 is used, and its other calls wait for it in each worker
    await pollUntil(
      async () => arrivalsOf('org_a').length,
      (count) => count === 2,
      15000,
      5,
    );
    await calls(workers, 'org_b', 2);
    expect(arrivalsOf('org_a'), 'A still waiting for its share when B was answered').to.have.length(2);
    // each organization counts in its own sub-scope (read while B's entries are still in their window)
    const keys = await connections[0]!.keys(`${prefix}:ratelimit:requests:*`);
    expect(keys.sort()).to.deep.equal(
      [
        `${prefix}:ratelimit:requests:{openai}`,
        `${prefix}:ratelimit:requests:{openai}:sum`,
        `${prefix}:ratelimit:requests:{openai|org:org_a}`,
        `${prefix}:ratelimit:requests:{openai|org:org_a}:sum`,
        `${prefix}:ratelimit:requests:{openai|org:org_b}`,
        `${prefix}:ratelimit:requests:{openai|org:org_b}:sum`,
      ].sort(),
    );
    await flood;
    expect(fake.requests).to.have.length(6);
    expect(mostWithin(arrivalsOf('org_a'), WINDOW_MS), 'A within its share in any window').to.be.at.most(2);
    expect(mostWithin(arrivalsOf('org_b'), WINDOW_MS), "B's calls in the same window").to.equal(2);
    expect(
      mostWithin(
        fake.requests.map((request) => request.receivedAt),
        WINDOW_MS,
      ),
    ).to.be.at.most(4);
    const throttled = await metrics.registry.getSingleMetricAsString('mthds_inference_throttled_calls_total');
    expect(throttled).to.match(/reason="org_requests",outcome="admitted"\} [1-9]/);
  });

  it("should hold a flooding organization to half the calls in flight, the other's calls in flight beside them", async () => {
    // nothing is answered before four calls are in flight at once: A's two and B's two; were B's calls held behind
    // A's waiting ones, none would ever be answered
    const gate = arrivalGate(4);
    fake.respondWith(() => ({ ...completion('hello'), after: gate() }));
    const config = configWith({ max_concurrent: 4 });
    const workers = [worker(config, 0.5), worker(config, 0.5)];
    const flood = calls(workers, 'org_a', 6);
    await pollUntil(
      async () => arrivalsOf('org_a').length,
      (count) => count === 2,
      15000,
      5,
    );
    await Promise.all([flood, calls(workers, 'org_b', 2)]);
    expect(fake.requests).to.have.length(8);
    // four were in flight at once (the gate opened), of which at most two of A's
    const ofA = fake.requests.filter((request) => organizationOf(request) === 'org_a');
    expect(mostInFlight(ofA)).to.be.at.most(2);
  });

  it('should leave the limits as they were at share 1: one organization may use the whole limit', async () => {
    const gate = arrivalGate(4);
    fake.respondWith(() => ({ ...completion('hello'), after: gate() }));
    const config = configWith({ requests_per_minute: 4, max_concurrent: 4 });
    const workers = [worker(config, undefined), worker(config, 1)];
    // all four in flight at once (the gate opened): A used the whole limit
    await calls(workers, 'org_a', 4);
    expect(await connections[0]!.keys(`${prefix}:ratelimit:*org:*`), 'no share counted').to.deep.equal([]);
  });
});
