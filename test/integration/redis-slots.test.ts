/**
 * One hash slot (docs/redis.md#one-hash-slot): with a hash-tagged `QUEUE_PREFIX` (`{slots}`), every key every command
 * touches — BullMQ's scripts and commands, the service's Lua scripts and the commands they run, the gate, the history
 * outbox, events, checkpoints, fan-out children, cancel and retry — carries the tag, so each script and each multi-key
 * command touches one slot, as Redis Cluster requires. A Redis of the test's own is watched with `MONITOR` over such a
 * lifecycle, `COMMAND GETKEYS` names the keys of each command it saw, and a cluster-enabled `redis-server` tells the
 * slot of each (`CLUSTER KEYSLOT`). With three run partitions (docs/redis.md#sharded-run-queues), the keys spread over
 * the partitions' three slots, and each command and each script — with every command it runs — still touches one.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import request from 'supertest';
import { partitionPrefix } from '../../shared/orchestration/queued.js';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { CONTROLLERS_BUNDLE } from '../helpers/controllers-bundle.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { startQueueDeployment } from '../helpers/queue-app.js';
import { type RedisServer, startRedisServer } from '../helpers/redis-servers.js';

const PREFIX = '{slots}';

describe('every key of a hash-tagged QUEUE_PREFIX in one slot (MONITOR on a redis-server of its own)', function () {
  this.timeout(120_000);
  const suite = useTestControlPlane();
  let server: RedisServer;
  let slotter: RedisServer;

  before(async () => {
    server = await startRedisServer([]);
    slotter = await startRedisServer(['--cluster-enabled', 'yes']);
  });
  after(async () => {
    await server?.stop();
    await slotter?.stop();
  });

  /** A command `MONITOR` saw: its arguments, and whether a script ran it. */
  interface Seen {
    args: string[];
    fromScript: boolean;
  }

  /** Watch a run's whole lifecycle on the test's Redis; the commands seen, upkeep left out. */
  async function lifecycle(environment: Record<string, string>): Promise<Seen[]> {
    const watcher = new Redis({ host: '127.0.0.1', port: server.port });
    const monitor = await watcher.monitor();
    const seen: Seen[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) =>
      seen.push({ args, fromScript: source === 'lua' }),
    );
    const receiver = await startCallbackReceiver();
    const deployment = startQueueDeployment({
      environment: {
        REDIS_URL: `redis://127.0.0.1:${server.port}`,
        RUN_FAN_OUT: 'true',
        MOCK_INFERENCE_LATENCY_MS: '200',
        // a second run of the owner waits in its line of the dispatch gate
        RUN_ORG_IN_FLIGHT_LIMIT: '1',
        CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
        ...environment,
      },
      controlPlane: suite.database,
      secret: 'slots-callback-secret',
    });
    try {
      const app = deployment.app;
      const start = (body: object) => request(app).post('/v1/start').send(body).expect(202);
      const stateOf = async (runId: string) =>
        (await request(app).get(`/v1/runs/${runId}/status`).expect(200)).body.state as string;
      const plain = await start({
        mthds_contents: [GREETING_BUNDLE],
        inputs: { name: 'Ada' },
        callback_urls: [receiver.url],
      });
      const fanned = await start({
        mthds_contents: [CONTROLLERS_BUNDLE],
        pipe_code: 'batch_echo',
        inputs: { words: ['one', 'two', 'three'] },
      });
      for (const ack of [plain, fanned])
        await pollUntil(
          () => stateOf(ack.body.pipeline_run_id as string),
          (state) => state === 'COMPLETED',
          60_000,
          20,
        );
      const cancelled = await start({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Bo' } });
      const runId = cancelled.body.pipeline_run_id as string;
      await pollUntil(
        () => stateOf(runId),
        (state) => state === 'RUNNING',
        60_000,
        10,
      );
      await request(app).post(`/v1/runs/${runId}/cancel`).expect(202);
      const retried = await request(app).post(`/v1/runs/${runId}/retry`).send({}).expect(202);
      await pollUntil(
        () => stateOf(retried.body.pipeline_run_id as string),
        (state) => state === 'COMPLETED',
        60_000,
        20,
      );
      await receiver.successes(1);
      await request(app).get('/v1/runs').expect(200);
    } finally {
      await deployment.close();
      await receiver.close();
    }
    monitor.disconnect();
    watcher.disconnect();
    return seen.filter(({ args }) => !['monitor', 'info', 'client', 'hello', 'ping'].includes(args[0]!.toLowerCase()));
  }

  /** The keys of each command (`COMMAND GETKEYS`), and the slot of each key (`CLUSTER KEYSLOT`). */
  async function keysAndSlots(commands: Seen[]): Promise<{ keysOf: string[][]; slotOf: Map<string, number> }> {
    const inspector = new Redis({ host: '127.0.0.1', port: server.port });
    const keysOf = await Promise.all(
      commands.map(({ args }) =>
        (inspector.call('COMMAND', 'GETKEYS', ...args) as Promise<string[]>).catch(() => [] as string[]),
      ),
    );
    inspector.disconnect();
    const keys = [...new Set(keysOf.flat())];
    const calculator = new Redis({ host: '127.0.0.1', port: slotter.port });
    const slots = await Promise.all(keys.map((key) => calculator.call('CLUSTER', 'KEYSLOT', key)));
    calculator.disconnect();
    return { keysOf, slotOf: new Map(keys.map((key, index) => [key, Number(slots[index])])) };
  }

  it('should touch only keys carrying the tag, in every command of a run’s lifecycle', async () => {
    const commands = await lifecycle({ QUEUE_PREFIX: PREFIX });
    const { keysOf, slotOf } = await keysAndSlots(commands);
    const keyed = new Map<string, string[]>();
    commands.forEach(({ args }, index) => {
      for (const key of keysOf[index]!) keyed.set(key, args);
    });
    const scripts = commands.filter(({ args }) => /^evalsha$|^eval$/i.test(args[0]!));
    expect(scripts.length, 'scripts seen').to.be.above(20);
    expect(keyed.size, 'keys seen').to.be.above(30);
    process.stdout.write(
      `      ${commands.length} commands (${scripts.length} script calls), ${keyed.size} distinct keys, all under ${PREFIX}\n`,
    );
    const untagged = [...keyed].filter(([key]) => !key.startsWith(`${PREFIX}:`));
    expect(
      untagged.map(([key, args]) => `${key} (${args.slice(0, 3).join(' ')})`),
      'keys outside the hash tag',
    ).to.deep.equal([]);
    expect(new Set(slotOf.values()).size, 'distinct slots').to.equal(1);
  });

  it('should keep each command and each script in one slot with three run partitions, the keys over three slots', async () => {
    const prefixes = [0, 1, 2].map((index) => partitionPrefix(PREFIX, index));
    const commands = await lifecycle({ QUEUE_PREFIX: PREFIX, RUN_QUEUE_PARTITIONS: '3' });
    const { keysOf, slotOf } = await keysAndSlots(commands);
    // a script's own commands follow its call in MONITOR's stream (a script runs alone): they count as its keys
    const units: { args: string[]; keys: string[] }[] = [];
    commands.forEach(({ args, fromScript }, index) => {
      const keys = keysOf[index]!;
      if (fromScript && units.length > 0) units.at(-1)!.keys.push(...keys);
      else units.push({ args, keys: [...keys] });
    });
    const crossSlot = units.filter(({ keys }) => new Set(keys.map((key) => slotOf.get(key))).size > 1);
    expect(
      crossSlot.map(({ args, keys }) => `${args.slice(0, 2).join(' ')}: ${keys.join(', ')}`),
      'commands and scripts touching several slots',
    ).to.deep.equal([]);
    const outside = [...slotOf.keys()].filter((key) => !prefixes.some((prefix) => key.startsWith(`${prefix}:`)));
    expect(outside, 'keys outside the partitions’ tags').to.deep.equal([]);
    const scripts = units.filter(({ args }) => /^evalsha$|^eval$/i.test(args[0]!));
    expect(scripts.length, 'scripts seen').to.be.above(20);
    expect(new Set(slotOf.values()).size, 'distinct slots').to.equal(3);
    process.stdout.write(
      `      ${units.length} commands and scripts (${scripts.length} script calls), ${slotOf.size} distinct keys over ${prefixes.join(', ')}: each in one slot\n`,
    );
  });
});
