import { expect } from 'chai';
import { request } from 'undici';
import { OutboundRequestRefusedError } from '../../../shared/errors/index.js';
import { guardedDispatcher, RefusedResolution } from '../../../shared/net/guarded-dispatcher.js';
import { type GuardedRequest, guardedRequest, type OutboundPolicy } from '../../../shared/net/index.js';
import { problemFor } from '../../helpers/problem.js';
import { type RequestSink, SINK_SECRET, startRequestSink } from '../../helpers/request-sink.js';
import {
  ALWAYS_REFUSED_SPELLINGS,
  LOOPBACK_SPELLINGS,
  NAMES_ALWAYS_REFUSED,
  NAMES_REFUSED_WHEN_OFF,
  REFUSED_WHEN_OFF,
  testResolver,
} from '../../helpers/ssrf-cases.js';

const policy = (allowPrivateHosts: boolean): OutboundPolicy => ({
  allowPrivateHosts,
  setting: 'TEST_ALLOW_PRIVATE_HOSTS',
});

function get(url: string, allowPrivateHosts: boolean, extra: Partial<GuardedRequest> = {}) {
  return guardedRequest(url, {
    subject: 'The test URL',
    method: 'GET',
    policy: policy(allowPrivateHosts),
    timeoutMs: 3000,
    maxResponseBytes: 1024,
    resolver: testResolver,
    ...extra,
  });
}

async function refusal(promise: Promise<unknown>): Promise<OutboundRequestRefusedError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(OutboundRequestRefusedError);
    return error as OutboundRequestRefusedError;
  }
  return expect.fail('expected a refusal');
}

describe('guardedRequest', function () {
  this.timeout(10000);
  let sink: RequestSink;

  beforeEach(async () => {
    sink = await startRequestSink();
  });

  afterEach(async () => {
    await sink.close();
  });

  describe('when the allow switch is off', () => {
    it(`should refuse all ${REFUSED_WHEN_OFF.length} non-public spellings before connecting (the sink sees nothing)`, async () => {
      for (const host of REFUSED_WHEN_OFF) await refusal(get(`http://${host}:${sink.port}/metrics`, false));
      expect(sink.received).to.deep.equal([]);
    });

    it(`should refuse all ${NAMES_REFUSED_WHEN_OFF.length} names at connect time on their resolved addresses`, async () => {
      for (const name of NAMES_REFUSED_WHEN_OFF) {
        const error = await refusal(get(`http://${name}:${sink.port}/metrics`, false));
        expect(error.message).to.match(
          new RegExp(
            `^The test URL http://${name.replace('.', '\\.')}:\\d+/metrics is refused: its host '${name.replace('.', '\\.')}' resolves to `,
          ),
        );
      }
      expect(sink.received).to.deep.equal([]);
    });

    it('should be a 422 input error that names the class and the setting', async () => {
      const error = await refusal(get(`http://0x7f000001:${sink.port}/metrics`, false));
      expect(error).to.include({ error_type: 'OutboundRequestRefusedError', error_domain: 'input' });
      expect(problemFor(error)).to.include({ status: 422, error_type: 'OutboundRequestRefusedError' });
      expect(error.message).to.equal(
        `The test URL http://0x7f000001:${sink.port}/metrics is refused: it targets 127.0.0.1, a non-public address (loopback): only public destinations are accepted while TEST_ALLOW_PRIVATE_HOSTS is off (it is for development and tests only).`,
      );
    });
  });

  describe('when the allow switch is on', () => {
    it(`should reach the sink through all ${LOOPBACK_SPELLINGS.length} loopback spellings and a loopback name (positive controls)`, async () => {
      for (const host of [...LOOPBACK_SPELLINGS, 'rebind.test']) {
        const response = await get(`http://${host}:${sink.port}/x`, true);
        expect(response.statusCode, host).to.equal(200);
        expect(response.body?.toString()).to.equal(SINK_SECRET);
      }
      expect(sink.received).to.have.length(LOOPBACK_SPELLINGS.length + 1);
    });

    it(`should still refuse all ${ALWAYS_REFUSED_SPELLINGS.length} metadata and other non-public spellings, and ${NAMES_ALWAYS_REFUSED.length} names resolving to metadata`, async () => {
      for (const host of ALWAYS_REFUSED_SPELLINGS) await refusal(get(`http://${host}:${sink.port}/latest`, true));
      for (const name of NAMES_ALWAYS_REFUSED)
        expect((await refusal(get(`http://${name}:${sink.port}/latest`, true))).message).to.match(
          /cloud-metadata address/,
        );
      expect(sink.received).to.deep.equal([]);
    });
  });

  describe('the connection check', () => {
    it('should refuse a literal loopback host at connect time even when the URL check is bypassed (switch off)', async () => {
      const dispatcher = await guardedDispatcher(
        { allowPrivateHosts: false, setting: 'DOCUMENT_ALLOW_PRIVATE_HOSTS' },
        testResolver,
      );
      for (const host of ['127.0.0.1', '[::1]', '[::ffff:7f00:1]']) {
        const error = await request(`http://${host}:${sink.port}/x`, { dispatcher }).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(error, host).to.be.instanceOf(RefusedResolution);
      }
      expect(sink.received).to.deep.equal([]);
    });
  });

  describe('redirects', () => {
    it('should hand a 3xx back without following it (the target sees nothing)', async () => {
      const target = await startRequestSink();
      const redirecting = await startRequestSink((_req, res) =>
        res.writeHead(302, { location: `${target.url}/second` }).end(),
      );
      try {
        const response = await get(`${redirecting.url}/first`, true);
        expect(response.statusCode).to.equal(302);
        expect(response.headers['location']).to.equal(`${target.url}/second`);
        expect(redirecting.received).to.have.length(1);
        expect(target.received).to.deep.equal([]);
      } finally {
        await Promise.all([target.close(), redirecting.close()]);
      }
    });
  });

  describe('bounds', () => {
    it('should stop reading a body over maxResponseBytes', async () => {
      const large = await startRequestSink((_req, res) => res.writeHead(200).end(Buffer.alloc(64 * 1024, 'x')));
      try {
        expect((await get(`${large.url}/big`, true, { maxResponseBytes: 1024 })).body).to.equal(null);
        expect((await get(`${large.url}/big`, true, { maxResponseBytes: 64 * 1024 })).body).to.have.length(64 * 1024);
      } finally {
        await large.close();
      }
    });

    it('should give up on a destination that never answers', async () => {
      const stalled = await startRequestSink(() => undefined);
      try {
        let failure: unknown;
        await get(`${stalled.url}/slow`, true, { timeoutMs: 300 }).catch((error: unknown) => (failure = error));
        expect(failure).to.be.instanceOf(Error).and.not.instanceOf(OutboundRequestRefusedError);
        expect((failure as Error).message).to.equal('no answer within 300 ms');
      } finally {
        await stalled.close();
      }
    });
  });
});
