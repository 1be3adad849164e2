/**
 * Where a side's Redis commands come from, for `bench/hot-path.ts`: the commands `MONITOR` saw, each command a client
 * sent (a round trip at most: auto-pipelined commands share one) counted by name, each script call by the script's
 * name with the commands it ran inside. Scripts are named from their SHA1: BullMQ's own (`bullmq:<name>`) and the
 * service's run registry and event log (`mthds:<command>`, the names they are defined under).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { Redis } from 'ioredis';
import { RedisRunEventLog } from '../shared/orchestration/events/index.js';
import { QueueKeys } from '../shared/orchestration/queued.js';
import { RunRegistry } from '../shared/orchestration/registry/index.js';
import type { MonitoredCommand } from './private-redis.js';

/** What one kind of client command cost over a phase. */
export interface Attributed {
  /** The command's name, or the script's for `evalsha` / `eval`. */
  name: string;
  /** Times clients sent it. */
  calls: number;
  /** Commands it ran inside (scripts only). */
  inside: number;
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** The SHA1 of every script the two sides define, to its name. */
function scriptNames(): Map<string, string> {
  const names = new Map<string, string>();
  const bullmq = createRequire(import.meta.url)('bullmq/dist/cjs/scripts/index.js') as Record<
    string,
    { name: string; content: string }
  >;
  for (const script of Object.values(bullmq)) names.set(sha1(script.content), `bullmq:${script.name}`);
  const unconnected = new Redis({ lazyConnect: true });
  const keys = new QueueKeys('names');
  new RunRegistry(unconnected, keys, 1, 1);
  new RedisRunEventLog({ redis: unconnected, keys, ttlSeconds: 1, maxEventsPerRun: 1, openReader: () => unconnected });
  // ioredis keeps each defined script, with its SHA1, under the name it was defined with
  const defined = unconnected.scriptsSet as Record<string, { sha: string }>;
  for (const [name, script] of Object.entries(defined)) names.set(script.sha, `mthds:${name}`);
  unconnected.disconnect();
  return names;
}

function scriptName(names: Map<string, string>, command: MonitoredCommand): string | undefined {
  const [name, body] = command.args;
  if (name === 'evalsha') return names.get(body ?? '') ?? `evalsha ${(body ?? '').slice(0, 8)}`;
  if (name === 'eval') return `eval “${(body ?? '').replace(/\s+/g, ' ').trim().slice(0, 48)}…”`;
  return undefined;
}

/**
 * Group the commands of a phase by client command, each script call with the commands it ran.
 * @param commands - what `MONITOR` saw, in order (a script's commands right after its call)
 * @returns one entry per command or script name, most costly first (calls plus commands inside)
 */
export function attribute(commands: readonly MonitoredCommand[]): Attributed[] {
  const names = scriptNames();
  const byName = new Map<string, Attributed>();
  let current: Attributed | undefined;
  for (const command of commands) {
    if (command.fromScript) {
      if (current) current.inside += 1;
      continue;
    }
    const script = scriptName(names, command);
    const name = script ?? command.args[0] ?? '';
    const entry = byName.get(name) ?? { name, calls: 0, inside: 0 };
    byName.set(name, entry);
    entry.calls += 1;
    current = script ? entry : undefined;
  }
  return [...byName.values()].sort((a, b) => b.calls + b.inside - (a.calls + a.inside));
}
