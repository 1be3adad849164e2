import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { SignJWT } from 'jose';
import { request } from 'undici';
import { closeServer } from '../../api/close-server.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';

const API_KEY = 'dashboard-test-key-0123456789';
const OPERATOR_KEY = 'dashboard-operator-key-0123456789';
const JWT_SECRET = 'a-dashboard-test-secret-of-reasonable-length';
const PAUSE = '/admin/queues/api/queues/runs/pause';
const RESUME = '/admin/queues/api/queues/runs/resume';

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('queue dashboard authentication for browsers (real HTTP, real Redis)', function () {
  this.timeout(30000);
  let deployment: QueueDeployment;
  let server: Server;
  let base: string;

  async function send(method: 'GET' | 'PUT', path: string, headers: Record<string, string> = {}): Promise<Answer> {
    const answer = await request(`${base}${path}`, { method, headers });
    return { status: answer.statusCode, headers: answer.headers, body: await answer.body.text() };
  }

  async function open(environment: Record<string, string>): Promise<void> {
    deployment = startQueueDeployment({ environment, workers: false });
    server = deployment.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  afterEach(async () => {
    await closeServer(server, 1000);
    await deployment.close();
  });

  describe('with AUTH_MODE=api_key', () => {
    beforeEach(() =>
      open({ AUTH_MODE: 'api_key', API_KEY, OPERATOR_API_KEY: OPERATOR_KEY, ADMIN_QUEUES_READ_ONLY: 'false' }),
    );

    it('should challenge a browser with Basic (and Bearer) when no credentials are sent', async () => {
      const answer = await send('GET', '/admin/queues/');
      expect(answer.status).to.equal(401);
      expect(answer.headers['www-authenticate']).to.equal(
        'Basic realm="MTHDS queue dashboard", charset="UTF-8", Bearer',
      );
      expect(JSON.parse(answer.body)).to.include({ error_type: 'Unauthenticated', status: 401 });
    });

    it('should serve the dashboard to Basic credentials whose password is the operator key, whatever the user name', async () => {
      for (const user of ['admin', '', 'someone else']) {
        const answer = await send('GET', '/admin/queues/', { authorization: basic(user, OPERATOR_KEY) });
        expect(answer.status, user).to.equal(200);
        expect(answer.headers['content-type']).to.match(/^text\/html/);
      }
      const api = await send('GET', '/admin/queues/api/queues?activeQueue=runs', {
        authorization: basic('a', OPERATOR_KEY),
      });
      expect(api.status).to.equal(200);
      expect(JSON.parse(api.body).queues.map((queue: { name: string }) => queue.name)).to.include('runs');
    });

    it('should challenge again on a wrong password or malformed Basic credentials', async () => {
      for (const authorization of [basic('admin', 'wrong'), basic('admin', ''), 'Basic bm8tY29sb24', 'Basic !!!']) {
        const answer = await send('GET', '/admin/queues/', { authorization });
        expect(answer.status, authorization).to.equal(401);
        expect(answer.headers['www-authenticate'], authorization).to.match(/^Basic realm=/);
      }
    });

    it('should still take the operator key as a Bearer token', async () => {
      expect((await send('GET', '/admin/queues/', { authorization: `Bearer ${OPERATOR_KEY}` })).status).to.equal(200);
    });

    it('should refuse the API key, a tenant credential, with 403 OperatorCredentialRequired', async () => {
      for (const authorization of [basic('admin', API_KEY), `Bearer ${API_KEY}`]) {
        const answer = await send('GET', '/admin/queues/', { authorization });
        expect(answer.status, authorization).to.equal(403);
        expect(JSON.parse(answer.body)).to.include({ error_type: 'OperatorCredentialRequired', status: 403 });
      }
    });

    it('should not take Basic credentials anywhere but the dashboard', async () => {
      const answer = await send('GET', '/v1/version', { authorization: basic('admin', API_KEY) });
      expect(answer.status).to.equal(401);
      expect(answer.headers['www-authenticate']).to.equal('Bearer');
      expect((await send('GET', '/metrics', { authorization: basic('admin', OPERATOR_KEY) })).status).to.equal(401);
      expect((await send('GET', '/metrics', { authorization: `Bearer ${OPERATOR_KEY}` })).status).to.equal(200);
    });

    it('should let the dashboard itself change a queue, and refuse the same request forged by another site', async () => {
      const queue = deployment.backend.runQueue.queue;
      const credentials = { authorization: basic('admin', OPERATOR_KEY) };
      const forgeries: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site', origin: base },
      ];
      for (const forged of forgeries) {
        const answer = await send('PUT', PAUSE, { ...credentials, ...forged });
        expect(answer.status, JSON.stringify(forged)).to.equal(403);
        expect(JSON.parse(answer.body)).to.include({ error_type: 'CrossOriginRequestRefused', status: 403 });
        expect(await queue.isPaused()).to.equal(false);
      }
      const own = await send('PUT', PAUSE, { ...credentials, origin: base, 'sec-fetch-site': 'same-origin' });
      expect(own.status).to.equal(200);
      expect(await queue.isPaused()).to.equal(true);
      const scripted = await send('PUT', RESUME, credentials);
      expect(scripted.status).to.equal(200);
      expect(await queue.isPaused()).to.equal(false);
      const bearerFromElsewhere = await send('PUT', PAUSE, {
        authorization: `Bearer ${OPERATOR_KEY}`,
        origin: 'https://x.example',
      });
      expect(bearerFromElsewhere.status).to.equal(200);
    });
  });

  describe('with AUTH_MODE=jwt', () => {
    beforeEach(() => open({ AUTH_MODE: 'jwt', JWT_SECRET_KEY: JWT_SECRET }));

    it('should take a valid operator JWT as the Basic password and refuse an invalid one', async () => {
      const token = await new SignJWT({ user_id: 'operator', roles: ['operator'] })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(JWT_SECRET));
      expect((await send('GET', '/admin/queues/', { authorization: basic('operator', token) })).status).to.equal(200);
      const wrong = await send('GET', '/admin/queues/', { authorization: basic('operator', `${token}x`) });
      expect(wrong.status).to.equal(401);
      expect(wrong.headers['www-authenticate']).to.match(/^Basic realm=/);
    });
  });

  describe('with AUTH_MODE=none', () => {
    beforeEach(() => open({}));

    it('should serve the dashboard without credentials', async () => {
      expect((await send('GET', '/admin/queues/')).status).to.equal(200);
    });
  });
});
