/**
 * Cluster-wide provider rate limits through the real routed backend (docs/inference.md#rate-limits): several
 * routed backends — one per simulated worker, each with its own Redis connection — share one real Redis under a
 * unique key prefix and call a fake OpenAI-compatible server on 127.0.0.1 that records when each request arrived and
 * was answered. The per-minute window is shortened to 2 s so the tests need not wait a minute.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { InferenceRateLimitWaitError } from '../../shared/errors/index.js';
import type { RateLimits } from '../../shared/inference/config/inference-config.js';
import { type InferenceConfig, loadInferenceConfig, throttleMetrics } from '../../shared/inference/index.js';
import { createRoutedBackend, type RoutedBackend } from '../../shared/inference/routed-backend.js';
import { Metrics } from '../../shared/observability/index.js';
import { mostInFlight, mostWithin } from '../helpers/arrivals.js';
import { googleError, startFakeGeminiServer } from '../helpers/fake-gemini-server.js';
import {
  completion,
  type FakeOpenAiServer,
  providerError,
  startFakeOpenAiServer,
} from '../helpers/fake-openai-server.js';
import { arrivalGate } from '../helpers/fake-provider-server.js';
import { failureOf } from '../helpers/inference-fixtures.js';
import { pollUntil } from '../helpers/poll.js';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.js';

const WINDOW_SECONDS = 2;
const WINDOW_MS = WINDOW_SECONDS * 1000;
const MODEL = 'gpt-4o-mini';

describe('provider rate limits (real Redis, fake provider)', function () {
  this.timeout(30000);
  let fake: FakeOpenAiServer;
  let prefix: string;
  const connections: Redis[] = [];

  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
    prefix = uniquePrefix();
  });

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

  afterEach(async () => {
    await fake.close();
    for (const connection of connections.splice(0)) connection.disconnect();
    await deletePrefix(prefix);
  });

  /** The packaged configuration pointed at the fake, with limits on the OpenAI backend and on the model. */
  function configWith(backendLimits: RateLimits | undefined, modelLimits?: RateLimits): InferenceConfig {
    const config = loadInferenceConfig(undefined, { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl });
    if (backendLimits) config.backends['openai']!.rate_limits = backendLimits;
    if (modelLimits) config.models['openai']![MODEL]!.rate_limits = modelLimits;
    return config;
  }

  /** One simulated worker: its own routed backend and Redis connection on the shared prefix. */
  /** When the provider answered its first request (the 429), once it has. */
  async function answeredAt(requests: readonly { answeredAt?: number }[]): Promise<number> {
    const at = await pollUntil(
      async () => requests[0]?.answeredAt,
      (answered) => answered !== undefined,
      15000,
      5,
    );
    return at as number;
  }

  /** Once a worker has set the backend's pause in Redis. */
  async function pausedInRedis(): Promise<void> {
    await pollUntil(
      () => connections[0]!.keys(`${prefix}:ratelimit:pause*`),
      (keys) => keys.length > 0,
      15000,
      5,
    );
  }

  function worker(config: InferenceConfig, waitMs = 20000, metrics?: Metrics): RoutedBackend {
    const client = testRedis({ maxRetriesPerRequest: 1 });
    connections.push(client);
    return createRoutedBackend({
      config,
      timeoutMs: 10000,
      maxRetries: 2,
      mockLatencyMs: 0,
      rateLimits: {
        store: { kind: 'redis', client, keyPrefix: prefix },
        waitMs,
        windowSeconds: WINDOW_SECONDS,
        ...(metrics ? { observer: throttleMetrics(metrics) } : {}),
      },
    });
  }

  const ask = (backend: RoutedBackend, maxTokens?: number) =>
    backend.generateText({
      pipeCode: 'greet',
      modelRef: MODEL,
      userPrompt: 'Say hello.',
      ...(maxTokens === undefined ? {} : { maxTokens }),
    });

  describe('requests per minute', () => {
    it('should let three workers together make at most the limit in any window, the rest waiting in order', async () => {
      const config = configWith({ requests_per_minute: 4 });
      const workers = [worker(config), worker(config), worker(config)];
      const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => ask(workers[index % 3]!)));
      expect(answers).to.have.length(12);
      const arrivals = fake.requests.map((request) => request.receivedAt);
      expect(fake.requests).to.have.length(12);
      expect(mostWithin(arrivals, WINDOW_MS)).to.be.at.most(4);
      expect(Math.max(...arrivals) - Math.min(...arrivals)).to.be.at.least(2 * WINDOW_MS - 200);
    });

    it('should apply a model limit on top of a looser backend limit', async () => {
      const config = configWith({ requests_per_minute: 100 }, { requests_per_minute: 2 });
      const workers = [worker(config), worker(config)];
      await Promise.all(Array.from({ length: 4 }, (_, index) => ask(workers[index % 2]!)));
      const arrivals = fake.requests.map((request) => request.receivedAt);
      expect(mostWithin(arrivals, WINDOW_MS)).to.be.at.most(2);
    });
  });

  describe('tokens per minute', () => {
    it('should charge the estimate before the call and correct it with the reported usage after', async () => {
      // Each call is estimated at 3 prompt tokens + 60 output tokens = 63 and uses 18 (the fake reports 11 + 7): the
      // third call fits only because the first two were corrected down; the fourth waits for the next window.
      const metrics = new Metrics();
      const throttled = () => metrics.registry.getSingleMetricAsString('mthds_inference_throttled_calls_total');
      const backend = worker(configWith({ tokens_per_minute: 100 }), 20000, metrics);
      for (let call = 0; call < 3; call++) await ask(backend, 60);
      expect(await throttled(), 'the first three calls waited for nothing').to.not.include('reason="tokens"');
      await ask(backend, 60);
      expect(await throttled()).to.match(/reason="tokens",outcome="admitted"\} 1/);
      const arrivals = fake.requests.map((request) => request.receivedAt);
      expect(arrivals[3]! - arrivals[0]!).to.be.at.least(WINDOW_MS - 200);
    });
  });

  describe('max concurrent', () => {
    it('should never let the workers together have more calls in flight than the cap', async () => {
      fake.respondWith(() => ({ ...completion('slow hello'), delayMs: 250 }));
      const config = configWith({ max_concurrent: 2 });
      const workers = [worker(config), worker(config), worker(config)];
      await Promise.all(Array.from({ length: 9 }, (_, index) => ask(workers[index % 3]!)));
      expect(fake.requests).to.have.length(9);
      expect(mostInFlight(fake.requests)).to.equal(2);
    });
  });

  describe('a provider 429 with Retry-After', () => {
    it('should pause the backend for every worker until then, the call being retried after the pause', async () => {
      const metrics = new Metrics();
      const config = configWith(undefined);
      const workers = [worker(config, 20000, metrics), worker(config), worker(config)];
      fake.replyNext(providerError(429, 'Rate limit reached.', { 'retry-after': '2' }));
      const first = ask(workers[0]!);
      const throttledAt = await answeredAt(fake.requests);
      // the other calls come once the first worker has seen the 429 and set the pause
      await pausedInRedis();
      const others = [ask(workers[1]!), ask(workers[2]!), ask(workers[0]!)];
      const answers = await Promise.all([first, ...others]);
      expect(answers.map((answer) => answer.text)).to.deep.equal(Array(4).fill('Hello from the fake provider.'));
      expect(fake.requests).to.have.length(5);
      for (const request of fake.requests.slice(1)) expect(request.receivedAt - throttledAt).to.be.at.least(1950);
      // each attempt's admission tag is taken off before it leaves
      for (const request of fake.requests) expect(request.headers).to.not.have.property('x-mthds-admission');
      const pauses = await metrics.registry.getSingleMetricAsString('mthds_inference_backend_pauses_total');
      expect(pauses).to.include('mthds_inference_backend_pauses_total{backend="openai"} 1');
    });
  });

  describe('a burst of calls on a backend without limits', () => {
    it('should make them at once, reading the backend pause at most once, in a shared lookup, rather than once per call', async () => {
      const backend = worker(configWith(undefined));
      await ask(backend);
      // the commands the worker's own connection sends that read the backend's pause
      const client = connections.at(-1)!;
      const send = client.sendCommand.bind(client);
      const pauseReads: string[] = [];
      client.sendCommand = (command, stream) => {
        if (command.args[0] === `${prefix}:ratelimit:pause:openai`) pauseReads.push(command.name);
        return send(command, stream);
      };
      const before = fake.requests.length;
      // no turn: the provider answers none of the ten before all ten are in, so calls that waited for one another's
      // admission would never all come
      const burst = arrivalGate(10);
      fake.respondWith(() => ({ ...completion('hello'), after: burst() }));
      await Promise.all(Array.from({ length: 10 }, () => ask(backend)));
      expect(fake.requests.slice(before)).to.have.length(10);
      // each call's admission looks the pause up, its first HTTP attempt leaving right after does not look again: 20
      // reads for the ten calls without the shared lookups; none when the first call's lookup is less than
      // PAUSE_KNOWLEDGE_MS old, one shared by all ten otherwise
      expect(pauseReads.filter((command) => command === 'get').length).to.be.at.most(1);
    });
  });

  describe('a Linkup 429 with Retry-After (the search backend goes through the same pausing fetch)', () => {
    it('should pause Linkup for every worker until then', async () => {
      const arrivals: number[] = [];
      const linkup = createServer((req, res) => {
        arrivals.push(Date.now());
        req.resume().on('end', () => {
          if (arrivals.length === 1) res.writeHead(429, { 'retry-after': '2' }).end('{"error":"slow down"}');
          else res.writeHead(200, { 'content-type': 'application/json' }).end('{"answer":"Tides.","sources":[]}');
        });
      });
      await new Promise<void>((resolve) => linkup.listen(0, '127.0.0.1', resolve));
      try {
        const config = loadInferenceConfig(undefined, {
          LINKUP_API_KEY: 'lk',
          LINKUP_BASE_URL: `http://127.0.0.1:${(linkup.address() as AddressInfo).port}/v1`,
        });
        const workers = [worker(config), worker(config)];
        const search = (backend: RoutedBackend) => backend.search!({ pipeCode: 'news', query: 'tides' });
        const throttled = await search(workers[0]!).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(throttled).to.have.property('name', 'SearchJobFailureError');
        const answers = await Promise.all([search(workers[1]!), search(workers[0]!)]);
        expect(answers.map((answer) => answer.result.answer)).to.deep.equal(['Tides.', 'Tides.']);
        expect(arrivals).to.have.length(3);
        for (const arrival of arrivals.slice(1)) expect(arrival - arrivals[0]!).to.be.at.least(1950);
      } finally {
        await new Promise<void>((resolve) => linkup.close(() => resolve()));
      }
    });
  });

  describe('a Gemini 429 with Retry-After (the SDK is given the same pausing fetch)', () => {
    it('should pause Gemini for every worker until then, the SDK retry waiting it out', async () => {
      const gemini = await startFakeGeminiServer();
      try {
        const config = loadInferenceConfig(undefined, { GEMINI_API_KEY: 'gk', GEMINI_BASE_URL: gemini.origin });
        const workers = [worker(config), worker(config)];
        const ask = (backend: RoutedBackend) =>
          backend.generateText({ pipeCode: 'greet', modelRef: 'gemini-flash-latest', userPrompt: 'Say hello.' });
        gemini.replyNext({ ...googleError(429, 'RESOURCE_EXHAUSTED'), headers: { 'retry-after': '2' } });
        const first = ask(workers[0]!);
        const throttledAt = await answeredAt(gemini.requests);
        // the other worker's call comes once the first worker has seen the 429 and set the pause
        await pausedInRedis();
        const answers = await Promise.all([first, ask(workers[1]!)]);
        expect(answers.map((answer) => answer.text)).to.deep.equal(
          Array(2).fill('Hello from the fake Gemini provider.'),
        );
        expect(gemini.requests).to.have.length(3);
        for (const request of gemini.requests.slice(1)) expect(request.receivedAt - throttledAt).to.be.at.least(1950);
        for (const request of gemini.requests) expect(request.headers).to.not.have.property('x-mthds-admission');
      } finally {
        await gemini.close();
      }
    });
  });

  describe('the wait deadline', () => {
    it('should fail a call that cannot be admitted in time with the retryable InferenceRateLimitWaitError', async () => {
      const metrics = new Metrics();
      const config = configWith({ requests_per_minute: 1 });
      const workers = [worker(config, 300, metrics), worker(config, 300, metrics)];
      await ask(workers[0]!);
      const error = await failureOf(ask(workers[1]!));
      expect(error).to.be.instanceOf(InferenceRateLimitWaitError);
      expect(error.error_type).to.equal('InferenceRateLimitWaitError');
      expect(error.error_domain).to.equal('runtime');
      expect(error.retryable).to.equal(true);
      expect(error.retry_after_seconds).to.be.at.least(1);
      // refused as soon as the wait would outlast the 300 ms deadline, not after the whole window
      expect(error.message).to.include('within 300 ms (INFERENCE_RATE_LIMIT_WAIT_MS)');
      expect(fake.requests).to.have.length(1);
      const throttled = await metrics.registry.getSingleMetricAsString('mthds_inference_throttled_calls_total');
      expect(throttled).to.match(/reason="requests",outcome="timed_out"\} 1/);
    });

    it('should fail calls queued behind a slow head at the deadline, counting each wait in process order', async () => {
      fake.respondWith(() => ({ ...completion('slow hello'), delayMs: 600 }));
      const backend = worker(configWith({ max_concurrent: 1 }), 400);
      const results = await Promise.allSettled([ask(backend), ask(backend), ask(backend)]);
      expect(results.map((result) => result.status)).to.deep.equal(['fulfilled', 'rejected', 'rejected']);
      for (const result of results.slice(1))
        expect((result as PromiseRejectedResult).reason).to.be.instanceOf(InferenceRateLimitWaitError);
      expect(fake.requests).to.have.length(1);
    });
  });

  describe('direct mode (in-memory limits)', () => {
    it('should enforce the same limits in the process memory', async () => {
      const backend = createRoutedBackend({
        config: configWith({ requests_per_minute: 2 }),
        timeoutMs: 10000,
        maxRetries: 0,
        mockLatencyMs: 0,
        rateLimits: { store: { kind: 'memory' }, waitMs: 200, windowSeconds: WINDOW_SECONDS },
      });
      await ask(backend);
      await ask(backend);
      expect(await failureOf(ask(backend))).to.be.instanceOf(InferenceRateLimitWaitError);
      expect(fake.requests).to.have.length(2);
    });
  });
});
