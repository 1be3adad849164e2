/**
 * A Redis server of the benchmark's own (`redis-server` on a free loopback port, nothing saved to disk), so that its
 * `INFO commandstats` counts the commands of the measured side and nothing else.
 */
import { spawn } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../test/helpers/processes.js';

/** Calls of each Redis command, by its `commandstats` name (`evalsha`, `hset`, `config|resetstat`…). */
export type CommandCalls = Map<string, number>;

/** One command Redis ran, as `MONITOR` shows it. */
export interface MonitoredCommand {
  /** The command's name (lower case) and arguments. */
  args: string[];
  /** Run by a Lua script (listed right after the `evalsha` / `eval` that ran it). */
  fromScript: boolean;
}

/** A running private Redis. */
export interface PrivateRedis {
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Zero the server's statistics (`CONFIG RESETSTAT`). */
  resetStats(): Promise<void>;
  /**
   * Calls per command since the last {@link resetStats}, the benchmark's own `CONFIG RESETSTAT` and `INFO` left out.
   * Commands that Lua scripts run are counted under their own names, beside the `evalsha` / `eval` that ran them.
   */
  commandCalls(): Promise<CommandCalls>;
  /** CPU time the server has used since it started (user and system), in ms (`INFO cpu`). */
  cpuMs(): Promise<number>;
  /**
   * Watch every command the server runs (`MONITOR`) while `work` runs.
   * @param work - the watched work
   * @returns the commands, in order
   */
  monitor(work: () => Promise<void>): Promise<MonitoredCommand[]>;
  /** Stop the server (SIGKILL: it keeps nothing). */
  close(): Promise<void>;
}

/**
 * Start `redis-server --port <free port> --save '' --appendonly no` and wait until it is ready.
 * @throws Error when it exits or is not ready within 10 s
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server on port ${port} not ready within 10 s`)), 10_000);
    const ready = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (!log.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      server.stdout!.off('data', ready).resume();
      resolve();
    };
    server.stdout!.on('data', ready);
    void exited.then(() => reject(new Error(`redis-server on port ${port} exited: ${log}`)));
  });
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url);
  await client.ping();
  return {
    url,
    async resetStats() {
      await client.config('RESETSTAT');
    },
    async commandCalls() {
      const calls: CommandCalls = new Map();
      for (const line of (await client.info('commandstats')).split('\n')) {
        const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line);
        if (match) calls.set(match[1]!, Number(match[2]));
      }
      // this connection's own: the RESETSTAT that opened the phase and the INFO that read it
      calls.delete('config|resetstat');
      calls.set('info', (calls.get('info') ?? 1) - 1);
      if (calls.get('info') === 0) calls.delete('info');
      return calls;
    },
    async cpuMs() {
      const info = await client.info('cpu');
      const seconds = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
      return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1000;
    },
    async monitor(work) {
      const seen: MonitoredCommand[] = [];
      const monitor = await client.monitor();
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        seen.push({ args: [String(args[0]).toLowerCase(), ...args.slice(1)], fromScript: source === 'lua' });
      });
      try {
        await work();
      } finally {
        monitor.disconnect();
      }
      return seen;
    },
    async close() {
      client.disconnect();
      server.kill('SIGKILL');
      await exited;
    },
  };
}
