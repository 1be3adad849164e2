import { join } from 'node:path';
import { expect } from 'chai';
import YAML from 'yaml';
import { loadApiConfig, loadSettings } from '../../../shared/config/index.js';
import { CLOSE_ALLOWANCE_MS } from '../../../shared/lifecycle/index.js';
import { QUEUE_CONFIG_DIR } from '../../helpers/config-dir.js';
import { REPO_ROOT, repoFile } from '../../helpers/deploy-files.js';

interface Healthcheck {
  test: string[];
}
interface Service {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: Healthcheck;
  depends_on?: Record<string, { condition: string }>;
  restart?: string;
  stop_grace_period?: string;
}

/** Seconds of a compose duration such as `40s` or `1m30s`. */
function seconds(duration: string): number {
  const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(duration);
  if (!match) throw new Error(`not a duration: ${duration}`);
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

/** The variables a compose text interpolates, with whether it requires them (`${NAME:?…}`). */
function interpolated(text: string): Map<string, boolean> {
  const variables = new Map<string, boolean>();
  for (const match of text.matchAll(/(?<!\$)\$\{(\w+)(:?[?-])?/g)) {
    const name = match[1] as string;
    variables.set(name, (variables.get(name) ?? false) || match[2] === ':?');
  }
  return variables;
}

describe('deploy/docker-compose.yml (static)', () => {
  const text = repoFile('deploy/docker-compose.yml');
  const compose = YAML.parse(text, { merge: true }) as { services: Record<string, Service> };
  const services = compose.services;
  const envExample = repoFile('deploy/.env.example');
  const exampleNames = new Set([...envExample.matchAll(/^(\w+)=/gm)].map((match) => match[1]));
  const longRunning = Object.entries(services).filter(([, service]) => service.restart !== 'no');

  it('should give every long-running service a healthcheck, and run one-shot services to completion first', () => {
    expect(longRunning.map(([name]) => name)).to.include.members([
      'redis',
      'storage',
      'postgres',
      'api',
      'worker',
      'lb',
    ]);
    for (const [name, service] of longRunning) {
      expect(service.healthcheck?.test, name).to.be.an('array').that.is.not.empty;
      expect(service.healthcheck?.test[0], name).to.equal('CMD');
    }
    for (const [name] of Object.entries(services).filter(([, service]) => service.restart === 'no')) {
      for (const dependent of Object.values(services)) {
        const condition = dependent.depends_on?.[name]?.condition;
        if (condition) expect(condition, name).to.equal('service_completed_successfully');
      }
    }
  });

  it('should publish one port, the load balancer, in front of the API replicas', () => {
    const published = Object.entries(services).filter(([, service]) => service.ports?.length);
    expect(published.map(([name]) => name)).to.deep.equal(['lb']);
    expect(services['lb']?.ports).to.have.length(1);
    const [, containerPort] = /:(\d+)$/.exec(services['lb']?.ports?.[0] ?? '') ?? [];
    const haproxy = repoFile('deploy/haproxy/haproxy.cfg');
    expect(haproxy).to.match(new RegExp(`^\\s*bind :${containerPort}$`, 'm'));
    expect(haproxy).to.match(/^\s*option httpchk GET \/ready$/m);
    expect(haproxy).to.match(/^\s*server-template \S+ \d+ api:8081\b/m);
    expect(services['lb']?.volumes).to.include('./haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(services['lb']?.depends_on?.['api']?.condition).to.equal('service_healthy');
  });

  it('should check the API with /health (liveness) and let the balancer route on /ready (readiness)', () => {
    expect(services['api']?.healthcheck?.test.join(' ')).to.include('http://127.0.0.1:8081/health');
    expect(services['worker']?.healthcheck?.test.join(' ')).to.include(
      `http://127.0.0.1:${services['worker']?.environment?.['WORKER_METRICS_PORT']}/metrics`,
    );
  });

  it('should run API replicas without an in-process worker, and workers, from the one image of deploy/Dockerfile', () => {
    expect(services['api']?.command).to.deep.equal(['node', 'dist/api/server.js', '--no-worker']);
    expect(services['worker']?.command).to.deep.equal(['node', 'dist/worker/main.js']);
    for (const name of ['api', 'worker']) {
      expect(services[name]?.build, name).to.deep.equal({ context: '..', dockerfile: 'deploy/Dockerfile' });
      expect(services[name]?.image, name).to.equal(services['api']?.image);
    }
  });

  it('should select queue mode through the mounted configuration layer', () => {
    expect(services['api']?.volumes).to.include('./config:/app/deploy/config:ro');
    expect(services['api']?.environment?.['SERVICE_CONFIG_DIR']).to.equal('/app/deploy/config');
    const config = loadApiConfig(join(REPO_ROOT, 'deploy/config'), 'production');
    expect(config.orchestrationMode).to.equal('bullmq');
  });

  it('should give Redis an append-only file on a volume and no eviction', () => {
    const redis = services['redis'] as Service;
    expect(redis.command?.join(' ')).to.include('--appendonly yes').and.include('--maxmemory-policy noeviction');
    expect(redis.volumes?.[0]).to.match(/^[\w-]+:\/data$/);
    expect(services['api']?.depends_on?.['redis']?.condition).to.equal('service_healthy');
  });

  it('should give the API replicas a shared PostgreSQL on a volume, and the workers no database', () => {
    const postgres = services['postgres'] as Service;
    expect(postgres.image).to.match(/^postgres:\d+/);
    expect(postgres.volumes?.[0]).to.match(/^[\w-]+:\/var\/lib\/postgresql\/data$/);
    expect(postgres.healthcheck?.test).to.deep.equal(['CMD', 'pg_isready', '-U', 'mthds', '-d', 'mthds']);
    expect(postgres.environment).to.include({ POSTGRES_USER: 'mthds', POSTGRES_DB: 'mthds' });
    expect(postgres.environment?.['POSTGRES_PASSWORD']).to.match(/^\$\{POSTGRES_PASSWORD:\?[^}]*deploy\/\.env[^}]*\}$/);
    expect(services['api']?.environment?.['DATABASE_URL']).to.match(
      /^postgres:\/\/mthds:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/mthds$/,
    );
    expect(services['api']?.depends_on?.['postgres']?.condition).to.equal('service_healthy');
    expect(services['worker']?.environment, 'workers do not open the control plane').to.not.have.property(
      'DATABASE_URL',
    );
    expect(Object.keys((YAML.parse(text) as { volumes: Record<string, unknown> }).volumes)).to.include(
      (postgres.volumes?.[0] ?? '').split(':')[0],
    );
  });

  it('should wire the object storage settings to the API and the workers, on a bucket created before they start', () => {
    for (const name of ['api', 'worker']) {
      const environment = services[name]?.environment ?? {};
      expect(environment['STORAGE_BACKEND'], name).to.equal('s3');
      expect(environment['STORAGE_S3_ENDPOINT'], name).to.equal('http://storage:9000');
      expect(environment['STORAGE_S3_FORCE_PATH_STYLE'], name).to.equal('true');
      for (const key of ['STORAGE_S3_BUCKET', 'STORAGE_S3_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']) {
        expect(environment[key], `${name} ${key}`).to.match(/^\$\{\w+:?[-?]/);
      }
      expect(services[name]?.depends_on?.['storage-init']?.condition).to.equal('service_completed_successfully');
    }
    expect(services['storage-init']?.command?.join(' ')).to.include('mc mb --ignore-existing');
  });

  it('should take every secret from the environment, refuse to start without the required ones, and list them all in .env.example', () => {
    const variables = interpolated(text);
    for (const required of ['API_KEY', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'POSTGRES_PASSWORD']) {
      expect(variables.get(required), required).to.equal(true);
    }
    expect(text).to.match(/\$\{API_KEY:\?[^}]*deploy\/\.env[^}]*\}/);
    for (const name of variables.keys()) expect(exampleNames.has(name), `${name} in .env.example`).to.equal(true);
    for (const service of Object.values(services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        // The database's user name is no credential: the password is (and DATABASE_URL's, checked above).
        if (key === 'POSTGRES_USER') expect(value, key).to.equal('mthds');
        else if (/KEY|SECRET|PASSWORD|_USER$/.test(key)) expect(value, key).to.match(/^\$\{\w+(:?[-?][^}]*)?\}$/);
      }
    }
    for (const line of envExample
      .split('\n')
      .filter((row) => /^(API_KEY|AWS_\w+|\w*SECRET\w*|\w*PASSWORD\w*)=/.test(row))) {
      expect(line, 'no secret value committed').to.match(/=$/);
    }
    expect(repoFile('.gitignore').split('\n')).to.include('deploy/.env');
  });

  it('should give workers a stop grace period above their shutdown grace, and a valid environment to both processes', () => {
    const environment = (name: string): Record<string, string> => {
      const resolved: Record<string, string> = {};
      for (const [key, value] of Object.entries(services[name]?.environment ?? {})) {
        resolved[key] = value.replace(/\$\{(\w+)(?::?[-?]([^}]*))?\}/g, (_whole, variable: string, fallback = '') =>
          /[?]/.test(_whole) ? `value-of-${variable}` : fallback,
        );
      }
      return resolved;
    };
    const worker = loadSettings({ ...environment('worker'), SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR });
    const grace = seconds(services['worker']?.stop_grace_period ?? '10s') * 1000;
    expect(grace).to.be.at.least(worker.worker.shutdownGraceMs + CLOSE_ALLOWANCE_MS);
    expect(worker.worker.metricsPort).to.be.greaterThan(0);
    const api = loadSettings({ ...environment('api'), SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR });
    expect(api.auth.mode).to.equal('api_key');
    expect(api.database.url).to.equal('postgres://mthds:value-of-POSTGRES_PASSWORD@postgres:5432/mthds');
    const apiGrace = seconds(services['api']?.stop_grace_period ?? '10s') * 1000;
    expect(apiGrace).to.be.at.least(api.shutdownGraceMs + CLOSE_ALLOWANCE_MS);
  });
});
