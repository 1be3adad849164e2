import { Worker } from 'bullmq';
import { expect } from 'chai';
import type { RedisClient } from '../../shared/config/index.js';
import { OutboundRequestRefusedError } from '../../shared/errors/index.js';
import { fetchDocument } from '../../shared/inference/extraction/fetch-document.js';
import type { HostResolver } from '../../shared/net/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import { CALLBACK_QUEUE, CallbackQueue, JobSeals, openRedis, QueueKeys } from '../../shared/orchestration/queued.js';
import { createCallbackProcessor } from '../../shared/orchestration/workers/callback-processor.js';
import { deletePrefix, TEST_REDIS_TARGET, uniquePrefix } from '../helpers/redis.js';
import { type RequestSink, startRequestSink } from '../helpers/request-sink.js';
import { ALWAYS_REFUSED_SPELLINGS, testResolver } from '../helpers/ssrf-cases.js';

/** The test resolver, recording every name it is asked for. */
function recordingResolver(): { resolver: HostResolver; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolver: (host) => {
      asked.push(host);
      return testResolver(host);
    },
  };
}

describe('regression: callbacks refused at delivery, and redirect hops (issue 29, finding 9)', function () {
  this.timeout(20000);
  let sink: RequestSink;

  beforeEach(async () => {
    sink = await startRequestSink();
  });

  afterEach(async () => {
    await sink.close();
  });

  describe('a callback whose host resolves to a refused address at delivery', () => {
    const prefix = uniquePrefix();
    const keys = new QueueKeys(prefix);
    let redis: RedisClient;
    let workerRedis: RedisClient;
    let callbacks: CallbackQueue;
    let worker: Worker;
    let metrics: Metrics;

    beforeEach(() => {
      redis = openRedis(TEST_REDIS_TARGET, 'producer');
      const seals = new JobSeals(redis, keys);
      callbacks = new CallbackQueue({ connection: redis, keys, seals, maxAttempts: 6, backoffMs: 20 });
      metrics = new Metrics();
      workerRedis = openRedis(TEST_REDIS_TARGET, 'worker');
      worker = new Worker(
        CALLBACK_QUEUE,
        createCallbackProcessor({
          readSecret: () => 'callback-secret',
          seals,
          now: Date.now,
          timeoutMs: 2000,
          allowPrivateHosts: false,
          resolver: testResolver,
          logger: createLogger('silent', 'test'),
          metrics,
        }),
        { connection: workerRedis, prefix: keys.bullPrefix },
      );
    });

    afterEach(async () => {
      await worker.close();
      await callbacks.close();
      workerRedis.disconnect();
      redis.disconnect();
      await deletePrefix(prefix);
    });

    async function deliver(url: string): Promise<{ state: string; attemptsMade: number; failedReason: string }> {
      const failed = new Promise<string>((resolve) => worker.once('failed', (job) => resolve(job?.id ?? '')));
      await callbacks.enqueue([{ pipeline_run_id: 'run-1', request_id: 'req-1', url, body: '{"status":"COMPLETED"}' }]);
      const job = await callbacks.queue.getJob(await failed);
      return { state: await job!.getState(), attemptsMade: job!.attemptsMade, failedReason: job!.failedReason };
    }

    it('should dead-letter it after its one attempt, with the refusal as its reason, and never reach the host', async () => {
      const url = `http://rebind.test:${sink.port}/hook`;
      expect(await deliver(url)).to.deep.equal({
        state: 'failed',
        attemptsMade: 1,
        failedReason: `CallbackDeliveryError: The callback URL ${url} is refused: its host 'rebind.test' resolves to 127.0.0.1, a non-public address (loopback): only public destinations are accepted while CALLBACK_ALLOW_PRIVATE_HOSTS is off (it is for development and tests only).`,
      });
      const counted = (await metrics.callbackDeliveries.get()).values.map(({ labels, value }) => [
        labels.outcome,
        value,
      ]);
      expect(counted).to.deep.equal([['dead_lettered', 1]]);
      expect(sink.received).to.deep.equal([]);
    });

    it('should still retry a delivery that may succeed later (a name that does not resolve yet)', async () => {
      const delivery = await deliver(`http://not-yet.test:${sink.port}/hook`);
      expect(delivery.state).to.be.oneOf(['delayed', 'waiting', 'active']);
      expect(delivery.attemptsMade).to.equal(1);
    });
  });

  describe('a document fetch redirected to a refused destination', () => {
    const limits = { maxBytes: 1024, timeoutMs: 3000, allowPrivateHosts: true, maxRedirects: 3 };

    it(`should refuse all ${ALWAYS_REFUSED_SPELLINGS.length} metadata and other refused spellings on the redirect hop by name, as on the first, without resolving them`, async () => {
      for (const host of ALWAYS_REFUSED_SPELLINGS) {
        const hop = `http://${host}:${sink.port}/computeMetadata/v1/`;
        const redirecting = await startRequestSink((_req, res) => res.writeHead(302, { location: hop }).end());
        const { resolver, asked } = recordingResolver();
        try {
          const first = `${redirecting.url}/first`;
          const error = await fetchDocument(first, { ...limits, resolver }).then(
            () => expect.fail(`${host}: the redirect was followed`),
            (thrown: unknown) => thrown,
          );
          expect(error, host).to.be.instanceOf(OutboundRequestRefusedError);
          expect((error as Error).message, host).to.match(
            new RegExp(`^The document URL ${first} is refused: its redirect to http://\\S+ targets `),
          );
          expect(asked, `${host} was looked up`).to.deep.equal([]);
          expect(redirecting.received, host).to.have.length(1);
        } finally {
          await redirecting.close();
        }
      }
      expect(sink.received).to.deep.equal([]);
    });

    it('should word the refusal of metadata.google.internal on a hop exactly as on the first URL', async () => {
      const hop = `http://metadata.google.internal:${sink.port}/computeMetadata/v1/`;
      const redirecting = await startRequestSink((_req, res) => res.writeHead(307, { location: hop }).end());
      const { resolver, asked } = recordingResolver();
      try {
        const refusal = (url: string) =>
          fetchDocument(url, { ...limits, resolver }).then(
            () => expect.fail('fetched'),
            (error: Error) => error.message,
          );
        const reason = `targets 'metadata.google.internal', a cloud-metadata host name: cloud-metadata destinations are refused in every mode, whatever DOCUMENT_ALLOW_PRIVATE_HOSTS says.`;
        expect(await refusal(hop)).to.equal(`The document URL ${hop} is refused: it ${reason}`);
        expect(await refusal(`${redirecting.url}/first`)).to.equal(
          `The document URL ${redirecting.url}/first is refused: its redirect to ${hop} ${reason}`,
        );
        expect(asked).to.deep.equal([]);
      } finally {
        await redirecting.close();
      }
    });

    it('should follow a redirect to an accepted destination (the positive control)', async () => {
      const redirecting = await startRequestSink((_req, res) =>
        res.writeHead(302, { location: `http://rebind.test:${sink.port}/document` }).end(),
      );
      try {
        const document = await fetchDocument(`${redirecting.url}/first`, { ...limits, resolver: testResolver });
        expect(Buffer.from(document.bytes).toString()).to.equal('sink-secret-7f3a');
        expect(sink.received).to.deep.equal([{ method: 'GET', path: '/document' }]);
      } finally {
        await redirecting.close();
      }
    });
  });
});
