/**
 * TLS and ACL users (docs/redis.md#tls-and-acl-users): a Redis of the test's own that speaks TLS only, asks for a
 * client certificate and knows one ACL user (its default user off) serves a queue deployment whose `REDIS_URL` is
 * `rediss://runner:…@…` with the CA, certificate and key files; a plain connection, a wrong password and a connection
 * without the client certificate are refused.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { RedisTls } from '../../shared/config/index.js';
import { openRedis } from '../../shared/orchestration/queued.js';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { startQueueDeployment } from '../helpers/queue-app.js';
import {
  makeCertificates,
  type RedisServer,
  startRedisServer,
  type TestCertificates,
} from '../helpers/redis-servers.js';

const PASSWORD = 's3cret-runner';

describe('Redis over TLS with an ACL user (a redis-server of its own)', function () {
  this.timeout(60_000);
  let certificates: TestCertificates;
  let server: RedisServer;

  before(async () => {
    certificates = makeCertificates();
    server = await startRedisServer(
      [
        '--tls-cert-file',
        certificates.serverCertFile,
        '--tls-key-file',
        certificates.serverKeyFile,
        '--tls-ca-cert-file',
        certificates.caFile,
        '--tls-auth-clients',
        'yes',
        '--user',
        'default',
        'off',
        '--user',
        'runner',
        'on',
        `>${PASSWORD}`,
        '~*',
        '&*',
        '+@all',
      ],
      { tlsOnly: true },
    );
  });

  after(async () => {
    await server?.stop();
    certificates?.remove();
  });

  const tlsFiles = () => ({
    REDIS_TLS_CA_FILE: certificates.caFile,
    REDIS_TLS_CERT_FILE: certificates.clientCertFile,
    REDIS_TLS_KEY_FILE: certificates.clientKeyFile,
  });

  it('should run a queued run to its signed callback through rediss:// with the ACL user', async () => {
    const receiver = await startCallbackReceiver();
    const deployment = startQueueDeployment({
      environment: {
        REDIS_URL: `rediss://runner:${PASSWORD}@127.0.0.1:${server.port}`,
        ...tlsFiles(),
        CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
      },
      secret: 'tls-callback-secret',
    });
    try {
      const ack = await request(deployment.app)
        .post('/v1/start')
        .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' }, callback_urls: [receiver.url] })
        .expect(202);
      await receiver.successes(1);
      const delivered = JSON.parse(receiver.received[0]!.body) as Record<string, unknown>;
      expect(delivered).to.include({ pipeline_run_id: ack.body.pipeline_run_id, state: 'COMPLETED' });
      const status = await request(deployment.app)
        .get(`/v1/runs/${String(ack.body.pipeline_run_id)}/status`)
        .expect(200);
      expect(status.body.state).to.equal('COMPLETED');
    } finally {
      await deployment.close();
      await receiver.close();
    }
  });

  it('should answer 503 QueueUnavailableError to a start while its password is refused, and not be ready', async () => {
    const deployment = startQueueDeployment({
      environment: { REDIS_URL: `rediss://runner:wrong@127.0.0.1:${server.port}`, ...tlsFiles() },
      workers: false,
    });
    try {
      const refused = await request(deployment.app)
        .post('/v1/start')
        .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } })
        .expect(503);
      expect(refused.body).to.include({ error_type: 'QueueUnavailableError', retryable: true });
      await request(deployment.app).get('/ready').expect(503);
    } finally {
      await deployment.close();
    }
  });

  /** What the first command of a connection answers: PONG, or why it failed. */
  async function firstAnswer(url: string, tls?: RedisTls): Promise<string> {
    const redis = openRedis({ url, ...(tls ? { tls } : {}) }, 'producer');
    try {
      return await redis.ping();
    } catch (error) {
      return (error as Error).message;
    } finally {
      redis.disconnect();
    }
  }

  it('should answer the ACL user over TLS, and refuse plain text, a wrong password and a missing client certificate', async () => {
    const url = (password: string) => `rediss://runner:${password}@127.0.0.1:${server.port}`;
    const client = {
      caFile: certificates.caFile,
      certFile: certificates.clientCertFile,
      keyFile: certificates.clientKeyFile,
    };
    expect(await firstAnswer(url(PASSWORD), client)).to.equal('PONG');
    expect(await firstAnswer(`redis://runner:${PASSWORD}@127.0.0.1:${server.port}`)).to.not.equal('PONG');
    expect(await firstAnswer(url('wrong'), client)).to.match(/WRONGPASS/);
    expect(await firstAnswer(url(PASSWORD), { caFile: certificates.caFile })).to.not.equal('PONG');
  });
});
