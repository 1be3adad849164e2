/**
 * The Redis target (shared/config/redis-target.ts, docs/redis.md): `REDIS_URL` with the TLS files of a `rediss://`
 * connection or the sentinels, checked together; each combination that cannot work refuses to boot with one line
 * naming its variable.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadSettings } from '../../../shared/config/index.js';
import { refusal } from '../../helpers/settings-refusal.js';

describe('the Redis target (REDIS_URL, REDIS_TLS_*, REDIS_SENTINEL*, REDIS_CLUSTER_*)', () => {
  let dir: string;
  let pem: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'mthds-redis-target-'));
    pem = join(dir, 'ca.pem');
    writeFileSync(pem, '-----BEGIN CERTIFICATE-----\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('should make a plain target of REDIS_URL alone', () => {
    expect(loadSettings({ REDIS_URL: 'redis://user:pw@redis.internal:6380/2' }).queue.redis).to.deep.equal({
      url: 'redis://user:pw@redis.internal:6380/2',
    });
  });

  it('should carry the TLS files and server name of a rediss:// URL', () => {
    const settings = loadSettings({
      REDIS_URL: 'rediss://redis.internal:6380',
      REDIS_TLS_CA_FILE: pem,
      REDIS_TLS_CERT_FILE: pem,
      REDIS_TLS_KEY_FILE: pem,
      REDIS_TLS_SERVERNAME: 'redis.example',
    });
    expect(settings.queue.redis).to.deep.equal({
      url: 'rediss://redis.internal:6380',
      tls: { caFile: pem, certFile: pem, keyFile: pem, servername: 'redis.example' },
    });
    expect(loadSettings({ REDIS_URL: 'rediss://redis.internal' }).queue.redis).to.deep.equal({
      url: 'rediss://redis.internal',
      tls: {},
    });
  });

  it('should carry the sentinels and their master', () => {
    const settings = loadSettings({
      REDIS_URL: 'redis://:pw@ignored:6379/1',
      REDIS_SENTINELS: 'sentinel-a:26379, 10.0.0.2:26380,[::1]:26381',
      REDIS_SENTINEL_MASTER: 'mymaster',
      REDIS_SENTINEL_PASSWORD: 'sentinel-pw',
    });
    expect(settings.queue.redis).to.deep.equal({
      url: 'redis://:pw@ignored:6379/1',
      sentinels: {
        nodes: [
          { host: 'sentinel-a', port: 26379 },
          { host: '10.0.0.2', port: 26380 },
          { host: '::1', port: 26381 },
        ],
        masterName: 'mymaster',
        password: 'sentinel-pw',
      },
    });
  });

  it('should carry the cluster nodes and the NAT map', () => {
    const settings = loadSettings({
      REDIS_URL: 'rediss://runner:pw@ignored:6379',
      QUEUE_PREFIX: '{mthds}',
      REDIS_CLUSTER_NODES: 'node-a:7000, 10.0.0.2:7001',
      REDIS_CLUSTER_NAT_MAP: '10.1.0.5:6379=redis-a.example:7000, [fd00::5]:6379=[::1]:7003',
    });
    expect(settings.queue.redis).to.deep.equal({
      url: 'rediss://runner:pw@ignored:6379',
      tls: {},
      cluster: {
        nodes: [
          { host: 'node-a', port: 7000 },
          { host: '10.0.0.2', port: 7001 },
        ],
        natMap: {
          '10.1.0.5:6379': { host: 'redis-a.example', port: 7000 },
          'fd00::5:6379': { host: '::1', port: 7003 },
        },
      },
    });
    expect(loadSettings({ QUEUE_PREFIX: '{m}', REDIS_CLUSTER_NODES: 'h:7000' }).queue.redis.cluster).to.deep.equal({
      nodes: [{ host: 'h', port: 7000 }],
      natMap: {},
    });
  });

  it('should refuse each combination that cannot work, naming its variable', () => {
    const missing = join(dir, 'absent.pem');
    const cases: [Record<string, string>, string][] = [
      [
        { REDIS_TLS_CA_FILE: pem },
        'REDIS_TLS_CA_FILE: set, but REDIS_URL is redis:// (plain); use rediss:// to connect with TLS',
      ],
      [
        { REDIS_URL: 'rediss://h', REDIS_TLS_CERT_FILE: pem },
        'REDIS_TLS_KEY_FILE: required too (a client certificate needs both REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE)',
      ],
      [{ REDIS_URL: 'rediss://h', REDIS_TLS_CA_FILE: missing }, `REDIS_TLS_CA_FILE: cannot read ${missing}`],
      [
        { REDIS_SENTINEL_MASTER: 'mymaster' },
        'REDIS_SENTINEL_MASTER: set without REDIS_SENTINELS (the sentinels to ask for that master)',
      ],
      [
        { REDIS_SENTINELS: 'h:26379' },
        'REDIS_SENTINELS: set without REDIS_SENTINEL_MASTER (the name of the master the sentinels watch)',
      ],
      [
        { REDIS_SENTINELS: 'h:26379,h', REDIS_SENTINEL_MASTER: 'm' },
        "REDIS_SENTINELS: 'h' is not host:port (a comma-separated list of sentinels)",
      ],
      [
        { REDIS_SENTINEL_PASSWORD: 'pw' },
        'REDIS_SENTINEL_PASSWORD: set without REDIS_SENTINELS (the sentinels it opens)',
      ],
      [
        { QUEUE_PREFIX: '{m}', REDIS_CLUSTER_NODES: 'h:7000', REDIS_SENTINELS: 'h:26379', REDIS_SENTINEL_MASTER: 'm' },
        'REDIS_CLUSTER_NODES: set with REDIS_SENTINELS (a deployment uses a cluster or sentinels, not both)',
      ],
      [
        { REDIS_CLUSTER_NODES: 'h:7000' },
        "REDIS_CLUSTER_NODES: set, but QUEUE_PREFIX 'mthds' is no hash tag; use braces ({mthds}) so each script's keys share a slot",
      ],
      [
        { QUEUE_PREFIX: '{m}', REDIS_CLUSTER_NODES: 'h:7000,h:0' },
        "REDIS_CLUSTER_NODES: 'h:0' is not host:port (a comma-separated list of cluster nodes)",
      ],
      [
        { QUEUE_PREFIX: '{m}', REDIS_URL: 'redis://h/2', REDIS_CLUSTER_NODES: 'h:7000' },
        'REDIS_URL: database 2 with REDIS_CLUSTER_NODES (a cluster has database 0 only)',
      ],
      [
        { QUEUE_PREFIX: '{m}', REDIS_CLUSTER_NODES: 'h:7000', REDIS_CLUSTER_NAT_MAP: '10.0.0.1:6379' },
        "REDIS_CLUSTER_NAT_MAP: '10.0.0.1:6379' is not announced=reachable (each host:port, comma-separated)",
      ],
      [
        { REDIS_CLUSTER_NAT_MAP: 'a:1=b:2' },
        'REDIS_CLUSTER_NAT_MAP: set without REDIS_CLUSTER_NODES (the cluster whose addresses it maps)',
      ],
    ];
    for (const [environment, problem] of cases)
      expect(refusal(environment), JSON.stringify(environment)).to.equal(
        `Invalid configuration, refusing to start: ${problem}`,
      );
  });
});
