/**
 * Run storage under `storage_scope` (spec §2.3, §7.2; docs/storage.md), end to end over real HTTP: a run writes its
 * result under `<scope>/results/`, its large inputs under `<scope>/assets/` and its generated media under
 * `<scope>/generated/`, on the filesystem backend (direct mode) and on the S3 backend (queue mode, real Redis, s3rver
 * on
 * 127.0.0.1, an in-process worker); results outlive the run record and link their media by URLs the caller can fetch;
 * another owner's read is 403; a queued run's large payload leaves Redis; every path escape is refused.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { SignJWT } from 'jose';
import request from 'supertest';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { createLogger, Metrics } from '../../shared/observability/index.js';
import { startWorkerPool } from '../../shared/orchestration/queued.js';
import { FsObjectStore, type ObjectInfo, type ObjectStore } from '../../shared/storage/index.js';
import { S3ObjectStore } from '../../shared/storage/s3-object-store.js';
import { AdvancingClock } from '../helpers/advancing-clock.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { listenOnLoopback, rawRequest } from '../helpers/raw-http.js';
import { testRedis } from '../helpers/redis.js';
import { type S3Server, startS3Server } from '../helpers/s3-server.js';
import { redrawRequest } from '../helpers/storage-bundle.js';
import { buildTestApp } from '../helpers/test-app.js';

const JWT_SECRET = 'a-storage-test-secret-of-reasonable-length-0123';
const SMALL_MEDIA = { STORAGE_INLINE_MEDIA_MAX_BYTES: '256' };
const GREETING = `domain = "storage_greeting"
main_pipe = "greet"

[pipe.greet]
type = "PipeLLM"
description = "Greet someone"
inputs = { name = "Text" }
output = "Text"
prompt = "Greet $name"
`;

function signJwt(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

async function listed(store: ObjectStore): Promise<string[]> {
  const paths: string[] = [];
  for await (const { key } of store.list() as AsyncIterable<ObjectInfo>)
    paths.push(`${key.scope}/${key.leaf}/${key.name}`);
  return paths.sort();
}

/** The store's paths once the run's result is written (it is written behind the run's answer). */
function listedWithResult(store: ObjectStore, resultPath: string): Promise<string[]> {
  return pollUntil(
    () => listed(store),
    (paths) => paths.includes(resultPath),
  );
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const photoName = (size: number, fill = 7) => `${sha256(Buffer.alloc(size, fill))}.png`;
const docName = (size: number, fill = 7) => `${sha256(Buffer.alloc(size, fill + 1))}.pdf`;

describe('run storage', function () {
  this.timeout(60000);

  describe('direct mode, filesystem backend', () => {
    let dir: string;
    let server: Server;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'mthds-run-storage-'));
    });
    afterEach(async () => {
      if (server?.listening) await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    });

    it('writes the result, the inputs and the generated image under the scope, and serves them by URL', async () => {
      const app = buildTestApp({ STORAGE_DIR: dir, ...SMALL_MEDIA });
      const run = await request(app)
        .post('/v1/execute')
        .send(redrawRequest({ scope: 'acme/prod', photoBytes: 40_000, docBytes: 30_000 }))
        .expect(200);
      const runId: string = run.body.pipeline_run_id;
      const store = new FsObjectStore(dir);
      const paths = await listedWithResult(store, `acme/prod/results/${runId}.json`);
      const generated = paths.filter((path) => path.startsWith('acme/prod/generated/'));
      expect(paths).to.include.members([
        `acme/prod/results/${runId}.json`,
        `acme/prod/assets/${photoName(40_000)}`,
        `acme/prod/assets/${docName(30_000)}`,
      ]);
      expect(generated).to.have.length(1);
      expect(generated[0]).to.match(/^acme\/prod\/generated\/[0-9a-f]{64}\.svg$/);
      expect(paths.every((path) => path.startsWith('acme/prod/'))).to.equal(true);

      const kept = readFileSync(join(dir, 'acme/prod/results', `${runId}.json`), 'utf8');
      expect(kept).to.not.include(Buffer.alloc(40_000, 7).toString('base64'));
      expect(kept).to.not.include(Buffer.alloc(30_000, 8).toString('base64'));
      expect(kept.length).to.be.below(40_000);

      server = await listenOnLoopback(createServer(app));
      const port = (server.address() as { port: number }).port;
      const results = await rawRequest(server, 'GET', `/v1/runs/${runId}/results`);
      expect(results.status).to.equal(200);
      const body = JSON.parse(results.body);
      expect(body.main_stuff.url).to.equal(`pipelex-storage://${generated[0]}`);
      const imageUrl: string = body.main_stuff.public_url;
      expect(imageUrl).to.match(
        new RegExp(
          `^http://127\\.0\\.0\\.1:${port}/v1/storage/${generated[0]}\\?X-Mthds-Expires=\\d+&X-Mthds-Signature=[0-9a-f]{64}$`,
        ),
      );
      expect(results.body).to.not.include('mthds-storage:');
      expect(results.body).to.not.include(dir);
      const image = await fetch(imageUrl);
      expect(image.status).to.equal(200);
      expect(image.headers.get('content-type')).to.equal('image/svg+xml');
      expect(image.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(await image.text()).to.include('mock image: A watercolor of');
      const photoUrl: string = body.pipe_output.working_memory.root.photo.content.public_url;
      const photo = Buffer.from(await (await fetch(photoUrl)).arrayBuffer());
      expect(photo.equals(Buffer.alloc(40_000, 7))).to.equal(true);
    });

    it('keeps small media inline and scopes a run without storage_scope to the caller’s own id', async () => {
      const app = buildTestApp({ STORAGE_DIR: dir });
      const run = await request(app)
        .post('/v1/execute')
        .send(redrawRequest({ photoBytes: 100, docBytes: 100 }))
        .expect(200);
      const resultPath = `single-tenant/results/${run.body.pipeline_run_id}.json`;
      expect(await listedWithResult(new FsObjectStore(dir), resultPath)).to.deep.equal([resultPath]);
      const results = await request(app).get(`/v1/runs/${run.body.pipeline_run_id}/results`).expect(200);
      expect(results.body.pipe_output.working_memory.root.photo.content.url).to.match(/^data:image\/png;base64,/);
    });

    it('serves the results from storage once the run record expired', async () => {
      const clock = new AdvancingClock();
      const app = buildTestApp(
        { STORAGE_DIR: dir, RUN_RECORD_TTL_SECONDS: '1', ...SMALL_MEDIA },
        undefined,
        undefined,
        clock.now,
      );
      const run = await request(app)
        .post('/v1/execute')
        .send(redrawRequest({ scope: 'acme/prod', photoBytes: 2000, docBytes: 2000 }))
        .expect(200);
      const runId: string = run.body.pipeline_run_id;
      const live = await request(app).get(`/v1/runs/${runId}/results`).expect(200);
      clock.advance(2000);
      await request(app).get(`/v1/runs/${runId}/results`).expect(404);
      const kept = await request(app).get(`/v1/runs/${runId}/results?storage_scope=acme/prod`).expect(200);
      const withoutOrigin = (body: unknown) =>
        JSON.stringify(body)
          .replace(/http:\/\/127\.0\.0\.1:\d+\//g, '/')
          .replace(/\?X-Mthds-Expires=\d+&X-Mthds-Signature=[0-9a-f]+/g, '');
      expect(withoutOrigin(kept.body)).to.equal(withoutOrigin(live.body));
      expect(JSON.stringify(kept.body)).to.include('/v1/storage/acme/prod/assets/');
      const status = await request(app).get(`/v1/runs/${runId}/status?storage_scope=acme/prod`).expect(200);
      expect(status.body).to.include({ pipeline_run_id: runId, status: 'COMPLETED' });
      const invalid = await request(app).get(`/v1/runs/${runId}/results?storage_scope=../acme`).expect(422);
      expect(invalid.body.error_type).to.equal('ValidationError');
    });

    it('refuses every object path that leaves its prefix, before reading anything', async () => {
      const app = buildTestApp({ STORAGE_DIR: dir });
      await new FsObjectStore(dir).put(
        { scope: 'acme', leaf: 'results', name: 'secret.json' },
        new TextEncoder().encode('{}'),
        'application/json',
      );
      server = await listenOnLoopback(createServer(app));
      const refused = [
        '/v1/storage/../../etc/assets/passwd',
        '/v1/storage/%2e%2e/assets/x.png',
        '/v1/storage/acme/assets/%2e%2e',
        '/v1/storage/acme/assets/..%2fresults%2fsecret.json',
        '/v1/storage/acme/assets/%2Fetc%2Fpasswd',
        '/v1/storage/%2Fetc/assets/x.png',
        '/v1/storage/%EF%BC%8E%EF%BC%8E/assets/x.png',
        '/v1/storage/acme/assets/%EF%BC%8E%EF%BC%8E',
        '/v1/storage/acme/assets/.hidden',
        '/v1/storage/acme/secrets/x.png',
        '/v1/storage/a/b/c/d/assets/x.png',
        '/v1/storage/acme%5C..%5C/assets/x.png',
      ];
      for (const path of refused) {
        const answer = await rawRequest(server, 'GET', path);
        expect(answer.status, path).to.equal(422);
        expect(JSON.parse(answer.body), path).to.include({
          error_type: 'StoragePathError',
          code: 'storage_path_invalid',
        });
      }
      const results = await rawRequest(server, 'GET', '/v1/storage/acme/results/secret.json');
      expect(results.status).to.equal(404);
      expect(JSON.parse(results.body).code).to.equal('storage_object_not_found');
      expect((await rawRequest(server, 'GET', '/v1/storage/acme/assets/missing.png')).status).to.equal(404);
    });

    it('in jwt mode: answers 403 for a scope the caller does not own, on results and on objects', async () => {
      const clock = new AdvancingClock();
      const app = buildTestApp(
        {
          STORAGE_DIR: dir,
          AUTH_MODE: 'jwt',
          JWT_SECRET_KEY: JWT_SECRET,
          RUN_RECORD_TTL_SECONDS: '1',
          ...SMALL_MEDIA,
        },
        undefined,
        undefined,
        clock.now,
      );
      const alice = await signJwt({ user_id: 'alice' });
      const bob = await signJwt({ user_id: 'bob' });
      const carol = await signJwt({ user_id: 'carol', storage_scopes: ['alice/shared'] });
      const run = await request(app)
        .post('/v1/execute')
        .set('Authorization', `Bearer ${alice}`)
        .send(redrawRequest({ scope: 'alice/shared', photoBytes: 2000, docBytes: 2000 }))
        .expect(200);
      const runId: string = run.body.pipeline_run_id;
      const results = await request(app)
        .get(`/v1/runs/${runId}/results`)
        .set('Authorization', `Bearer ${alice}`)
        .expect(200);
      expect(new URL(results.body.main_stuff.public_url).pathname).to.match(/^\/v1\/storage\/alice\/shared\//);
      const imagePath = results.body.main_stuff.url.replace('pipelex-storage://', '/v1/storage/');
      expect(imagePath).to.match(/^\/v1\/storage\/alice\/shared\/generated\//);

      const forbidden = await request(app)
        .get(`/v1/runs/${runId}/results?storage_scope=alice/shared`)
        .set('Authorization', `Bearer ${bob}`)
        .expect(403);
      expect(forbidden.body).to.include({
        error_type: 'StorageOwnershipMismatchError',
        code: 'storage_ownership_mismatch',
        status: 403,
      });
      const object = await request(app).get(imagePath).set('Authorization', `Bearer ${bob}`).expect(403);
      expect(object.body.code).to.equal('storage_ownership_mismatch');
      await request(app).get(imagePath).set('Authorization', `Bearer ${carol}`).expect(200);
      await request(app).get(imagePath).expect(401);

      clock.advance(2000);
      await request(app).get(`/v1/runs/${runId}/results`).set('Authorization', `Bearer ${alice}`).expect(404);
      await request(app)
        .get(`/v1/runs/${runId}/results?storage_scope=alice/shared`)
        .set('Authorization', `Bearer ${bob}`)
        .expect(403);
      await request(app)
        .get(`/v1/runs/${runId}/results?storage_scope=alice/shared`)
        .set('Authorization', `Bearer ${carol}`)
        .expect(404);
      await request(app)
        .get(`/v1/runs/${runId}/results?storage_scope=alice/shared`)
        .set('Authorization', `Bearer ${alice}`)
        .expect(200);
    });
  });

  describe('queue mode, S3 backend (s3rver), real Redis', () => {
    let s3: S3Server;
    let deployment: QueueDeployment;
    let store: S3ObjectStore;
    beforeEach(async () => {
      s3 = await startS3Server();
      store = new S3ObjectStore({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
      });
    });
    afterEach(async () => {
      await deployment?.close();
      store.close();
      await s3.close();
    });

    it('writes the result, the inputs and the generated image under the scope, and links them by presigned URLs', async () => {
      deployment = startQueueDeployment({ environment: { ...s3.environment, ...SMALL_MEDIA } });
      await deployment.backend.runQueue.waitUntilFinished('no-such-job', 1);
      const run = await request(deployment.app)
        .post('/v1/execute')
        .send(redrawRequest({ scope: 'acme/prod', photoBytes: 40_000, docBytes: 30_000 }))
        .expect(200);
      const runId: string = run.body.pipeline_run_id;
      const paths = await listedWithResult(store, `acme/prod/results/${runId}.json`);
      expect(paths).to.include.members([
        `acme/prod/results/${runId}.json`,
        `acme/prod/assets/${photoName(40_000)}`,
        `acme/prod/assets/${docName(30_000)}`,
      ]);
      expect(paths.filter((path) => path.startsWith('acme/prod/generated/'))).to.have.length(1);
      expect(paths.filter((path) => path.includes('/payloads/'))).to.deep.equal([]);

      const drawing = run.body.pipe_output.working_memory.root.drawing.content;
      expect(drawing.url).to.match(/^pipelex-storage:\/\/acme\/prod\/generated\/[0-9a-f]{64}\.svg$/);
      const imageUrl: string = drawing.public_url;
      expect(imageUrl.startsWith(`${s3.endpoint}/${s3.bucket}/acme/prod/generated/`)).to.equal(true);
      expect(imageUrl).to.include('X-Amz-Signature=');
      expect(await (await fetch(imageUrl)).text()).to.include('mock image: A watercolor of');

      await deployment.backend.registry.forget(runId);
      await request(deployment.app).get(`/v1/runs/${runId}/results`).expect(404);
      const kept = await request(deployment.app).get(`/v1/runs/${runId}/results?storage_scope=acme/prod`).expect(200);
      const photoUrl: string = kept.body.pipe_output.working_memory.root.photo.content.public_url;
      expect(photoUrl).to.include('/acme/prod/assets/');
      const photo = Buffer.from(await (await fetch(photoUrl)).arrayBuffer());
      expect(photo.equals(Buffer.alloc(40_000, 7))).to.equal(true);
      const redirect = await request(deployment.app).get(
        new URL(photoUrl).pathname.replace(`/${s3.bucket}`, '/v1/storage'),
      );
      expect(redirect.status).to.equal(302);
      expect(redirect.headers['location']).to.include('X-Amz-Signature=');
    });

    it('keeps a queued run with a 5 MiB PDF input under 10 KiB of Redis, its payload in storage until it ran', async () => {
      const environment = { ...s3.environment, STORAGE_PAYLOAD_OFFLOAD_KIB: '64' };
      deployment = startQueueDeployment({ environment, workers: false });
      const before = await redisBytes(deployment.settings.queue.prefix);
      const pdf = 5 * 1024 * 1024;
      const started = await request(deployment.app)
        .post('/v1/start')
        .send({ ...redrawRequest({ scope: 'acme/prod', photoBytes: 100, docBytes: pdf }), pipeline_run_id: 'big-pdf' })
        .expect(202);
      expect(started.body.pipeline_run_id).to.equal('big-pdf');
      const perRun = (await redisBytes(deployment.settings.queue.prefix)) - before;
      expect(perRun).to.be.below(10 * 1024);
      expect(await listed(store)).to.include.members([`acme/prod/assets/${docName(pdf)}`]);

      const settings = deployment.settings;
      const inference = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
      const pool = startWorkerPool({
        settings,
        logger: createLogger('silent', 'test'),
        metrics: new Metrics(),
        inference,
        readSecret: () => undefined,
      });
      try {
        const status = await pollUntil(
          () =>
            request(deployment.app)
              .get('/v1/runs/big-pdf/status')
              .then((response) => response.body),
          (body: { status?: string }) => body.status === 'COMPLETED' || body.status === 'FAILED',
        );
        expect(status.status).to.equal('COMPLETED');
      } finally {
        await pool.close();
      }
      const paths = await listedWithResult(store, 'acme/prod/results/big-pdf.json');
      expect(paths.filter((path) => path.includes('/payloads/'))).to.deep.equal([]);
    });

    it('moves a job payload over STORAGE_PAYLOAD_OFFLOAD_KIB to payloads/, runs it from there and drops it', async () => {
      const environment = { ...s3.environment, STORAGE_PAYLOAD_OFFLOAD_KIB: '8' };
      deployment = startQueueDeployment({ environment, workers: false });
      const before = await redisBytes(deployment.settings.queue.prefix);
      const longText = 'a sentence of the caller’s long text input. '.repeat(5000);
      await request(deployment.app)
        .post('/v1/start')
        .send({
          mthds_contents: [GREETING],
          inputs: { name: longText },
          storage_scope: 'acme/prod',
          pipeline_run_id: 'long-text',
        })
        .expect(202);
      expect((await redisBytes(deployment.settings.queue.prefix)) - before).to.be.below(10 * 1024);
      const payload = await store.get({ scope: 'acme/prod', leaf: 'payloads', name: 'long-text.json' });
      expect(JSON.parse(new TextDecoder().decode(payload!.body)).inputs.name).to.equal(longText);
      const job = await deployment.backend.runQueue.queue.getJob('long-text');
      expect(job?.data).to.include({ payload_object: 'long-text.json', storage_scope: 'acme/prod' });
      expect(job?.data).to.not.have.property('inputs');

      const settings = deployment.settings;
      const inference = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
      const pool = startWorkerPool({
        settings,
        logger: createLogger('silent', 'test'),
        metrics: new Metrics(),
        inference,
        readSecret: () => undefined,
      });
      try {
        await pollUntil(
          () =>
            request(deployment.app)
              .get('/v1/runs/long-text/status')
              .then((response) => response.body),
          (body: { status?: string }) => body.status === 'COMPLETED',
        );
      } finally {
        await pool.close();
      }
      const results = await request(deployment.app).get('/v1/runs/long-text/results').expect(200);
      expect(results.body.pipe_output.working_memory.root.name.content.text).to.equal(longText);
      expect(await store.get({ scope: 'acme/prod', leaf: 'payloads', name: 'long-text.json' })).to.equal(undefined);
    });
  });
});

/** Bytes Redis holds under a key prefix (`MEMORY USAGE` of every key). */
async function redisBytes(prefix: string): Promise<number> {
  const redis = testRedis({ maxRetriesPerRequest: 1 });
  try {
    let total = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      for (const key of keys)
        total += ((await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0')) as number | null) ?? 0;
    } while (cursor !== '0');
    return total;
  } finally {
    redis.disconnect();
  }
}
