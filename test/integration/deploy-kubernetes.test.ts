import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, Worker } from 'bullmq';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { type Environment, loadApiConfig, loadSettings } from '../../shared/config/index.js';
import { CLOSE_ALLOWANCE_MS } from '../../shared/lifecycle/index.js';
import { QueueKeys, RUN_QUEUE } from '../../shared/orchestration/queued.js';
import { hasKubectl, type K8sObject, kustomize } from '../helpers/deploy-files.js';
import { pollUntil } from '../helpers/poll.js';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.js';

/** RSS of the compiled processes measured idle (deploy/deploy/README.md#sizing), in MiB. */
const MEASURED_RSS_MIB = { api: 346, worker: 129 };

interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image?: string;
  args?: string[];
  ports?: { name: string; containerPort: number }[];
  envFrom?: { configMapRef?: { name: string } }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
  }[];
  resources?: { requests?: { cpu?: string; memory?: string }; limits?: { memory?: string } };
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  volumeMounts?: { name: string; mountPath: string }[];
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
  containers: Container[];
  volumes?: { name: string; configMap?: { name: string }; emptyDir?: object }[];
}
interface Deployment extends K8sObject {
  spec: {
    replicas?: number;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  };
}

function mebibytes(quantity: string | undefined): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity ?? '');
  if (!match) throw new Error(`not a Mi/Gi quantity: ${quantity}`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

/** A rendered overlay, with the lookups the checks need. */
class Rendered {
  constructor(readonly objects: K8sObject[]) {}

  one<T extends K8sObject>(kind: string, name: string): T {
    const found = this.objects.filter((object) => object.kind === kind && object.metadata.name === name);
    expect(found, `${kind}/${name}`).to.have.length(1);
    return found[0] as T;
  }

  /** The object of a kind whose generated name (hash suffix) starts with `name`. */
  generated(kind: string, name: string): K8sObject & { data: Record<string, string> } {
    const found = this.objects.filter(
      (object) =>
        object.kind === kind && (object.metadata.name === name || object.metadata.name.startsWith(`${name}-`)),
    );
    expect(found, `${kind}/${name}`).to.have.length(1);
    return found[0] as K8sObject & { data: Record<string, string> };
  }

  deployment(name: string): Deployment {
    return this.one<Deployment>('Deployment', name);
  }

  /** The environment a container of this Deployment gets: its ConfigMaps, then stand-ins for its Secret values. */
  environment(name: string): Environment {
    const container = this.deployment(name).spec.template.spec.containers[0] as Container;
    const environment: Environment = {};
    for (const source of container.envFrom ?? []) {
      const configMap = this.objects.find(
        (object) => object.kind === 'ConfigMap' && object.metadata.name === source.configMapRef?.name,
      ) as (K8sObject & { data: Record<string, string> }) | undefined;
      expect(configMap, source.configMapRef?.name).to.not.equal(undefined);
      Object.assign(environment, configMap?.data);
    }
    for (const variable of container.env ?? []) {
      if (variable.value !== undefined) environment[variable.name] = variable.value;
      const ref = variable.valueFrom?.secretKeyRef;
      if (ref && !ref.optional) environment[variable.name] = SECRET_STAND_INS[variable.name] ?? 'x';
    }
    return environment;
  }
}

/** Stand-ins for the Secret values whose shape the settings check (any other key gets `x`). */
const SECRET_STAND_INS: Record<string, string> = {
  REDIS_URL: 'redis://redis:6379',
  DATABASE_URL: 'postgres://mthds:x@postgres:5432/mthds',
};

const OVERLAYS = ['deploy/k8s/overlays/dev', 'deploy/k8s/overlays/production'];

describe('Kubernetes manifests (kubectl kustomize, offline)', function () {
  this.timeout(60000);
  const rendered = new Map<string, Rendered>();

  before(function () {
    if (!hasKubectl()) {
      process.stderr.write('\n  kubectl is not installed: skipping the rendering of deploy/k8s.\n\n');
      this.skip();
    }
    for (const overlay of ['deploy/k8s/base', ...OVERLAYS]) rendered.set(overlay, new Rendered(kustomize(overlay)));
  });

  for (const overlay of OVERLAYS) {
    describe(overlay, () => {
      const at = () => rendered.get(overlay) as Rendered;

      it('should give the API liveness on /health, readiness on /ready, and the worker probes on its metrics port', () => {
        const api = at().deployment('mthds-api').spec.template.spec.containers[0] as Container;
        expect(api.args).to.deep.equal(['node', 'dist/api/server.js', '--no-worker']);
        expect(api.ports).to.deep.equal([{ name: 'http', containerPort: 8081 }]);
        expect(api.livenessProbe?.httpGet).to.deep.equal({ path: '/health', port: 'http' });
        expect(api.startupProbe?.httpGet).to.deep.equal({ path: '/health', port: 'http' });
        expect(api.readinessProbe?.httpGet).to.deep.equal({ path: '/ready', port: 'http' });
        const worker = at().deployment('mthds-worker').spec.template.spec.containers[0] as Container;
        expect(worker.args).to.deep.equal(['node', 'dist/worker/main.js']);
        const metricsPort = loadSettings(at().environment('mthds-worker')).worker.metricsPort;
        expect(worker.ports).to.deep.equal([{ name: 'metrics', containerPort: metricsPort }]);
        expect(worker.livenessProbe?.httpGet).to.deep.equal({ path: '/live', port: 'metrics' });
        expect(worker.readinessProbe?.httpGet).to.deep.equal({ path: '/metrics', port: 'metrics' });
      });

      it('should give pods a termination grace above their shutdown grace (read from their own settings)', () => {
        const worker = at().deployment('mthds-worker').spec.template.spec;
        const workerSettings = loadSettings(at().environment('mthds-worker'));
        expect((worker.terminationGracePeriodSeconds ?? 30) * 1000).to.be.at.least(
          workerSettings.worker.shutdownGraceMs + CLOSE_ALLOWANCE_MS,
        );
        const api = at().deployment('mthds-api').spec.template.spec;
        const apiSettings = loadSettings(at().environment('mthds-api'));
        const preStop = Number((api.containers[0] as Container).lifecycle?.preStop?.exec?.command[1] ?? 0);
        expect((api.terminationGracePeriodSeconds ?? 30) * 1000).to.be.at.least(
          preStop * 1000 + apiSettings.shutdownGraceMs + CLOSE_ALLOWANCE_MS,
        );
      });

      it('should request at least the measured memory, cap it, and run as a non-root user on a read-only root', () => {
        for (const [name, rss] of [
          ['mthds-api', MEASURED_RSS_MIB.api],
          ['mthds-worker', MEASURED_RSS_MIB.worker],
        ] as const) {
          const spec = at().deployment(name).spec.template.spec;
          const container = spec.containers[0] as Container;
          expect(mebibytes(container.resources?.requests?.memory), name).to.be.at.least(rss);
          expect(container.resources?.requests?.cpu, name).to.be.a('string');
          expect(mebibytes(container.resources?.limits?.memory), name).to.be.greaterThan(
            mebibytes(container.resources?.requests?.memory),
          );
          expect(spec.securityContext?.runAsNonRoot, name).to.equal(true);
          expect(spec.securityContext?.runAsUser, name).to.not.equal(0);
          expect(container.securityContext, name).to.include({
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
          });
          expect(
            container.volumeMounts?.map((mount) => mount.mountPath),
            name,
          ).to.include('/tmp');
        }
      });

      it('should scale the API on CPU and cover both Deployments with a PodDisruptionBudget', () => {
        const hpa = at().one<K8sObject & { spec: Record<string, unknown> }>('HorizontalPodAutoscaler', 'mthds-api');
        expect(hpa.spec['scaleTargetRef']).to.deep.equal({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'mthds-api',
        });
        expect(hpa.spec['metrics']).to.deep.equal([
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
        ]);
        expect(hpa.spec['minReplicas'] as number).to.be.at.least(1);
        for (const name of ['mthds-api', 'mthds-worker']) {
          expect(at().deployment(name).spec.replicas, `${name}: the autoscaler owns the count`).to.equal(undefined);
          const pdb = at().one<K8sObject & { spec: { selector: { matchLabels: Record<string, string> } } }>(
            'PodDisruptionBudget',
            name,
          );
          const deployment = at().deployment(name);
          expect(pdb.spec.selector.matchLabels, name).to.deep.equal(deployment.spec.selector.matchLabels);
          expect(deployment.spec.template.metadata.labels, name).to.include(deployment.spec.selector.matchLabels);
        }
      });

      it('should scale the workers with KEDA on the run queue lists the workers read', () => {
        const scaled = at().one<
          K8sObject & {
            spec: {
              scaleTargetRef: { name: string };
              minReplicaCount: number;
              triggers: {
                type: string;
                name: string;
                metadata: Record<string, string>;
                authenticationRef: { name: string };
              }[];
            };
          }
        >('ScaledObject', 'mthds-worker');
        expect(scaled.spec.scaleTargetRef.name).to.equal('mthds-worker');
        expect(scaled.spec.minReplicaCount, 'workers also deliver callbacks').to.be.at.least(1);
        const environment = at().environment('mthds-worker');
        const settings = loadSettings(environment);
        const queueKey = `${new QueueKeys(settings.queue.prefix).bullPrefix}:${RUN_QUEUE}`;
        const byName = new Map(scaled.spec.triggers.map((trigger) => [trigger.name, trigger]));
        expect(byName.get('runs-waiting')?.metadata['listName']).to.equal(`${queueKey}:wait`);
        expect(byName.get('runs-active')?.metadata['listName']).to.equal(`${queueKey}:active`);
        for (const trigger of scaled.spec.triggers) {
          expect(trigger.type).to.equal('redis');
          const address = environment[trigger.metadata['addressFromEnv'] as string] ?? '';
          expect(address, `${trigger.name}: KEDA resolves it from its own namespace`).to.match(
            /^[\w-]+(\.[\w-]+)+:\d+$/,
          );
          const redis = at().objects.find((object) => object.kind === 'Service' && object.metadata.name === 'redis');
          if (redis) expect(address).to.equal(`redis.${redis.metadata.namespace}.svc.cluster.local:6379`);
          expect(trigger.authenticationRef.name).to.equal('mthds-redis');
        }
        const activeTarget = Number(byName.get('runs-active')?.metadata['listLength']);
        expect(activeTarget).to.be.within(1, settings.worker.concurrency);
        at().one('TriggerAuthentication', 'mthds-redis');
      });

      it('should mount the TOML configuration layers at SERVICE_CONFIG_DIR, selecting queue mode', () => {
        for (const name of ['mthds-api', 'mthds-worker']) {
          const spec = at().deployment(name).spec.template.spec;
          const environment = at().environment(name);
          const volume = spec.volumes?.find((entry) => entry.configMap?.name.startsWith('mthds-config'));
          const mount = (spec.containers[0] as Container).volumeMounts?.find((entry) => entry.name === volume?.name);
          expect(mount?.mountPath, name).to.equal(environment['SERVICE_CONFIG_DIR']);
          const configMap = at().objects.find(
            (object) => object.kind === 'ConfigMap' && object.metadata.name === volume?.configMap?.name,
          ) as K8sObject & { data: Record<string, string> };
          const directory = mkdtempSync(join(tmpdir(), 'k8s-config-'));
          try {
            for (const [file, content] of Object.entries(configMap.data)) writeFileSync(join(directory, file), content);
            expect(loadApiConfig(directory, environment['SERVICE_ENV'] ?? 'dev').orchestrationMode).to.equal('bullmq');
          } finally {
            rmSync(directory, { recursive: true, force: true });
          }
          expect(loadSettings(environment).auth.mode).to.equal(name === 'mthds-api' ? 'api_key' : 'none');
        }
      });

      it('should take every key and password from the Secret mthds-secrets', () => {
        for (const name of ['mthds-api', 'mthds-worker']) {
          const container = at().deployment(name).spec.template.spec.containers[0] as Container;
          const fromSecret = new Set(
            (container.env ?? [])
              .filter((variable) => variable.valueFrom?.secretKeyRef)
              .map((variable) => variable.name),
          );
          for (const key of ['REDIS_URL', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'OPENAI_API_KEY']) {
            expect(fromSecret.has(key), `${name} ${key}`).to.equal(true);
          }
          if (name === 'mthds-api') expect(fromSecret.has('API_KEY')).to.equal(true);
          // The API replicas share the control plane's PostgreSQL; the workers do not open it.
          const database = container.env?.find((variable) => variable.name === 'DATABASE_URL');
          if (name === 'mthds-api') {
            const ref = database?.valueFrom?.secretKeyRef;
            expect(ref?.key, 'DATABASE_URL').to.equal('DATABASE_URL');
            expect(ref?.name, 'DATABASE_URL (generated in dev: hash suffix)').to.match(/^mthds-secrets(-\w+)?$/);
            expect(ref?.optional, 'DATABASE_URL is required').to.equal(undefined);
            expect(loadSettings(at().environment(name)).database.url).to.equal(SECRET_STAND_INS['DATABASE_URL']);
          } else expect(database, `${name} DATABASE_URL`).to.equal(undefined);
          const plain = Object.keys(at().environment(name)).filter((key) => !fromSecret.has(key));
          expect(
            plain.filter((key) => /KEY|SECRET|PASSWORD/.test(key)),
            name,
          ).to.deep.equal([]);
        }
      });
    });
  }

  it('should generate the development Secret with every key the manifests read, and leave production to provide its own', () => {
    const dev = rendered.get('deploy/k8s/overlays/dev') as Rendered;
    const secret = dev.generated('Secret', 'mthds-secrets');
    const required = dev.objects
      .flatMap((object) => JSON.stringify(object).match(/"secretKeyRef":\{[^}]*\}/g) ?? [])
      .map((ref) => JSON.parse(`{${ref}}`).secretKeyRef as { name: string; key: string; optional?: boolean })
      .filter((ref) => !ref.optional);
    for (const ref of required) {
      expect(ref.name, ref.key).to.equal(secret.metadata.name);
      expect(Object.keys(secret.data ?? {}), ref.key).to.include(ref.key);
    }
    const auth = dev.one<K8sObject & { spec: { secretTargetRef: { name: string; key: string }[] } }>(
      'TriggerAuthentication',
      'mthds-redis',
    );
    for (const ref of auth.spec.secretTargetRef) {
      expect(ref.name).to.equal(secret.metadata.name);
      expect(Object.keys(secret.data)).to.include(ref.key);
    }
    const decoded = (key: string) => Buffer.from(secret.data[key] ?? '', 'base64').toString('utf8');
    expect(decoded('REDIS_URL')).to.equal('redis://redis:6379');
    dev.one('Service', 'redis');
    const database = new URL(decoded('DATABASE_URL'));
    expect(database.protocol).to.equal('postgres:');
    expect(decoded('POSTGRES_PASSWORD'), 'the password PostgreSQL is started with').to.equal(database.password);
    const postgres = dev.one<K8sObject & { spec: { ports: { port: number }[] } }>('Service', database.hostname);
    expect(postgres.spec.ports.map((entry) => entry.port)).to.include(Number(database.port));
    const server = dev.one<Deployment>('StatefulSet', 'postgres').spec.template.spec.containers[0] as Container;
    const serverEnv = new Map((server.env ?? []).map((variable) => [variable.name, variable]));
    expect(serverEnv.get('POSTGRES_USER')?.value).to.equal(decodeURIComponent(database.username));
    expect(serverEnv.get('POSTGRES_DB')?.value).to.equal(database.pathname.slice(1));
    expect(serverEnv.get('POSTGRES_PASSWORD')?.valueFrom?.secretKeyRef?.key).to.equal('POSTGRES_PASSWORD');
    const production = rendered.get('deploy/k8s/overlays/production') as Rendered;
    expect(production.objects.filter((object) => object.kind === 'Secret')).to.deep.equal([]);
    const image = production.deployment('mthds-api').spec.template.spec.containers[0]?.image;
    expect(image).to.match(/^[\w.-]+\/mthds-runner:\d+\.\d+\.\d+$/);
  });

  describe('the KEDA trigger lists on a real Redis', () => {
    const prefix = uniquePrefix();
    let redis: Redis;
    let queue: Queue;
    let worker: Worker | undefined;
    let workerConnection: Redis | undefined;

    before(() => {
      redis = testRedis({ maxRetriesPerRequest: null });
      queue = new Queue(RUN_QUEUE, { connection: redis, prefix: new QueueKeys(prefix).bullPrefix });
    });

    after(async () => {
      await worker?.close();
      await queue.close();
      workerConnection?.disconnect();
      redis.disconnect();
      await deletePrefix(prefix);
    });

    it('should count a queued run on the waiting list and a taken run on the active list', async () => {
      const dev = rendered.get('deploy/k8s/overlays/dev') as Rendered;
      const configured = loadSettings(dev.environment('mthds-worker')).queue.prefix;
      const scaled = dev.one<K8sObject & { spec: { triggers: { name: string; metadata: { listName: string } }[] } }>(
        'ScaledObject',
        'mthds-worker',
      );
      const list = (name: string) => {
        const listName = scaled.spec.triggers.find((trigger) => trigger.name === name)?.metadata.listName ?? '';
        expect(listName.startsWith(`${configured}:`)).to.equal(true);
        return `${prefix}${listName.slice(configured.length)}`;
      };
      await queue.add('run', { n: 1 }, { jobId: 'keda-probe' });
      expect(await redis.llen(list('runs-waiting'))).to.equal(1);
      expect(await redis.llen(list('runs-active'))).to.equal(0);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      workerConnection = testRedis({ maxRetriesPerRequest: null });
      worker = new Worker(RUN_QUEUE, () => held, {
        connection: workerConnection,
        prefix: new QueueKeys(prefix).bullPrefix,
      });
      await pollUntil(
        () => redis.llen(list('runs-active')),
        (length) => length === 1,
        10000,
      );
      expect(await redis.llen(list('runs-waiting'))).to.equal(0);
      release();
      await pollUntil(
        () => redis.llen(list('runs-active')),
        (length) => length === 0,
        10000,
      );
    });
  });
});
