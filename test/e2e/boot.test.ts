import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runUntilExit, type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

/** The log fields every line has but no test can predict. */
function stable(line: Record<string, unknown>): Record<string, unknown> {
  const { time: _time, pid: _pid, ...rest } = line;
  return rest;
}

/** A Redis URL with credentials, from the test Redis URL. */
function withCredentials(url: string): string {
  return url.replace(/^(rediss?:\/\/)(?:[^/]*@)?/, '$1ops:s3cret-p%40ss@');
}

function listenOn(port = 0): Promise<Server> {
  const server = createServer();
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

describe('boot of the real entry points (api/server.ts, worker/main.ts)', function () {
  this.timeout(120000);
  let configDir: string;

  beforeEach(() => {
    configDir = mkdtempSync(join(tmpdir(), 'mthds-boot-'));
  });

  afterEach(() => {
    rmSync(configDir, { recursive: true, force: true });
  });

  describe('when a setting is bad', () => {
    async function refusal(entry: 'api' | 'worker', environment: Record<string, string>): Promise<string> {
      const finished = await runUntilExit(entry, { SERVICE_CONFIG_DIR: configDir, ...environment });
      expect(finished.code, finished.stderr).to.equal(1);
      expect(finished.stderr.endsWith('\n'), finished.stderr).to.equal(true);
      const lines = finished.stderr.slice(0, -1).split('\n');
      expect(lines, finished.stderr).to.have.length(1);
      return lines[0]!;
    }

    it('should refuse an unknown INFERENCE_PROFILE with one line naming it (api and worker)', async () => {
      const line =
        "Invalid configuration, refusing to start: INFERENCE_PROFILE: 'nope' is not a routing profile of routing_profiles.toml (use auto, or one of: auto, mock, all_pipelex_gateway)";
      expect(await refusal('api', { INFERENCE_PROFILE: 'nope' })).to.equal(line);
      expect(await refusal('worker', { INFERENCE_PROFILE: 'nope' })).to.equal(line);
    });

    it('should refuse bad environment values with one line naming each', async () => {
      expect(await refusal('api', { PORT: 'abc', LOG_LEVEL: 'loud' })).to.equal(
        'Invalid configuration, refusing to start: PORT: Invalid input: expected number, received NaN; LOG_LEVEL: Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent"',
      );
      expect(await refusal('api', { AUTH_MODE: 'api_key' })).to.equal(
        'Invalid configuration, refusing to start: API_KEY: required when AUTH_MODE=api_key (the bearer token callers must send)',
      );
    });

    it('should refuse a bad api_override.toml with one line naming the file', async () => {
      writeFileSync(join(configDir, 'api_override.toml'), 'orchestration_mode = "bullmq"\nsurprise = 1\n');
      expect(await refusal('api', {})).to.equal(
        `Invalid configuration, refusing to start: ${join(configDir, 'api_override.toml')}: file: Unrecognized key: "surprise"`,
      );
    });

    it('should refuse a malformed inference configuration with one line naming the file', async () => {
      mkdirSync(join(configDir, 'inference'));
      writeFileSync(join(configDir, 'inference', 'routing_profiles.toml'), 'this is = = bad\n');
      expect(await refusal('api', {})).to.match(
        new RegExp(
          `^Invalid configuration, refusing to start: Inference configuration ${join(configDir, 'inference', 'routing_profiles.toml')}: `,
        ),
      );
    });

    it('should refuse a PORT it cannot listen on with one line', async () => {
      const taken = await listenOn();
      const { port } = taken.address() as { port: number };
      try {
        expect(await refusal('api', { HOST: '127.0.0.1', PORT: String(port) })).to.equal(
          `Cannot listen on 127.0.0.1:${port} (HOST, PORT): listen EADDRINUSE: address already in use 127.0.0.1:${port}; refusing to start`,
        );
      } finally {
        taken.close();
      }
    });

    it('should refuse a WORKER_METRICS_PORT it cannot listen on with one line', async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, resolve));
      const { port } = taken.address() as { port: number };
      const prefix = uniquePrefix();
      try {
        expect(
          await refusal('worker', {
            WORKER_METRICS_PORT: String(port),
            ...TEST_REDIS_ENVIRONMENT,
            QUEUE_PREFIX: prefix,
          }),
        ).to.match(
          new RegExp(
            `^Cannot listen on port ${port} \\(WORKER_METRICS_PORT\\): listen EADDRINUSE: address already in use \\S*:${port}; refusing to start$`,
          ),
        );
      } finally {
        taken.close();
        await deletePrefix(prefix);
      }
    });
  });

  describe('when the settings are good', () => {
    let service: ServiceProcess | undefined;

    afterEach(async () => {
      await service?.stop();
      service = undefined;
    });

    it('should log one startup line with version, mode, inference profile, mock and auth (direct mode)', async () => {
      const { api, baseUrl } = await spawnApi({ SERVICE_CONFIG_DIR: configDir, AUTH_MODE: 'api_key', API_KEY: 'k' });
      service = api;
      const port = Number(new URL(baseUrl).port);
      const line = api.logs.find((entry) => String(entry['msg']).includes('listening'))!;
      expect(stable(line)).to.deep.equal({
        level: 30,
        name: 'api',
        version: '0.1.0',
        inference_profile: 'auto',
        mock_inference: true,
        port,
        host: '127.0.0.1',
        orchestration_mode: 'direct',
        in_process_worker: false,
        auth_mode: 'api_key',
        storage_backend: 'fs',
        msg: `MTHDS runner 0.1.0 listening on http://127.0.0.1:${port} (orchestration direct, inference auto (MOCK), auth api_key)`,
      });
    });

    it('should give the Redis URL without its credentials in queue mode', async () => {
      writeFileSync(join(configDir, 'api_override.toml'), 'orchestration_mode = "bullmq"\n');
      const redisUrl = withCredentials(TEST_REDIS_URL);
      const shown = redisUrl.replace('ops:s3cret-p%40ss@', '***@');
      const { api, baseUrl } = await spawnApi({
        SERVICE_CONFIG_DIR: configDir,
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: 'boot-test',
        INFERENCE_PROFILE: 'mock',
      });
      service = api;
      const port = Number(new URL(baseUrl).port);
      const line = api.logs.find((entry) => String(entry['msg']).includes('listening'))!;
      expect(stable(line)).to.deep.equal({
        level: 30,
        name: 'api',
        version: '0.1.0',
        inference_profile: 'mock',
        mock_inference: true,
        port,
        host: '127.0.0.1',
        orchestration_mode: 'bullmq',
        in_process_worker: false,
        auth_mode: 'none',
        storage_backend: 'fs',
        redis_url: shown,
        queue_prefix: 'boot-test',
        msg: `MTHDS runner 0.1.0 listening on http://127.0.0.1:${port} (orchestration bullmq, inference mock (MOCK), auth none, redis ${shown})`,
      });
      expect(JSON.stringify(api.logs)).to.not.include('s3cret');
    });

    it('should log one worker startup line with the Redis URL without its credentials', async () => {
      const redisUrl = withCredentials(TEST_REDIS_URL);
      const shown = redisUrl.replace('ops:s3cret-p%40ss@', '***@');
      service = spawnService('worker', {
        SERVICE_CONFIG_DIR: configDir,
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: 'boot-test',
        WORKER_CONCURRENCY: '4',
      });
      const line = await service.waitForLog((entry) => entry['msg'] === 'worker started');
      expect(stable(line)).to.deep.equal({
        level: 30,
        name: 'worker',
        version: '0.1.0',
        inference_profile: 'auto',
        mock_inference: true,
        concurrency: 4,
        redis_url: shown,
        queue_prefix: 'boot-test',
        msg: 'worker started',
      });
      expect(JSON.stringify(service.logs)).to.not.include('s3cret');
    });
  });
});
