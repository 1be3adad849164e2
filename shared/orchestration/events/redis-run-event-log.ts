/**
 * The run event log on Redis Streams (docs/run-events.md): one stream per run (`events:<id>`, one field `event` holding
 * the event's JSON), trimmed to `RUN_EVENTS_MAX_PER_RUN` entries on every append (`XADD … MAXLEN`), and the run's
 * progress as one JSON string (`progress:<id>`); both expire `RUN_RECORD_TTL_SECONDS` after their last write, as the
 * run record does. Stream entry ids are the event ids, so `Last-Event-ID` resumes with `XREAD` after it.
 *
 * Appends and non-blocking reads share the log's connection. A follower that waits for a run in flight blocks on
 * `XREAD BLOCK` on a dedicated reader connection, opened for it and closed when it ends: one connection per open event
 * stream, whose number the API bounds (`RUN_EVENT_STREAMS_MAX`).
 */
import type { RedisClient } from '../../config/index.js';
import type { QueueKeys } from '../queue/queue-keys.js';
import { whenQueueReachable } from '../queue/queue-outage.js';
import type { RunEvent, RunProgress } from './run-event.js';
import type { FollowOptions, LoggedRunEvent, RunEventLog } from './run-event-log.js';

/** Entries read per `XREAD`. */
const READ_BATCH = 100;
/** Longest one `XREAD BLOCK` waits before it is issued again, in ms (the signal ends it sooner). */
const BLOCK_MS = 5000;

/** What the log is built from. */
export interface RedisRunEventLogOptions {
  /** The connection of appends and non-blocking reads. */
  redis: RedisClient;
  keys: QueueKeys;
  /** Lifetime of a run's stream and progress after their last write, in seconds (`RUN_RECORD_TTL_SECONDS`). */
  ttlSeconds: number;
  /** Most events kept per run (`RUN_EVENTS_MAX_PER_RUN`); older ones are trimmed. */
  maxEventsPerRun: number;
  /** Opens the dedicated connection of one waiting follower (a `reader`: it never reconnects). */
  openReader(): RedisClient;
}

/** The append connection with the append script defined on it (ioredis `defineCommand`: `EVALSHA`). */
type ScriptedRedis = RedisClient & {
  mthdsAppendRunEvents(...keysThenArgs: (string | number)[]): Promise<number>;
};

/**
 * Append a run's events and store its progress, in one round trip (a script, not a MULTI transaction: one command to
 * encode and parse instead of three per event).
 *
 * KEYS[1] event stream, KEYS[2] progress. ARGV[1] most entries kept (`MAXLEN`), ARGV[2] TTL in seconds, ARGV[3] the
 * progress's JSON text or empty for none, ARGV[4…] the events' JSON texts, oldest first. Returns the events appended.
 */
const APPEND_RUN_EVENTS = `
for i = 4, #ARGV do
  redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[1], '*', 'event', ARGV[i])
end
redis.call('EXPIRE', KEYS[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[2]) end
return #ARGV - 3
`;

type StreamEntries = [id: string, fields: string[]][];
type XReadReply = [key: string, entries: StreamEntries][] | null;

function reachable<T>(call: () => Promise<T>): Promise<T> {
  return whenQueueReachable(call, (reason) => `The run event log (Redis) is unreachable: ${reason}. Retry later.`);
}

function logged([id, fields]: [string, string[]]): LoggedRunEvent {
  return { id, event: JSON.parse(fields[fields.indexOf('event') + 1] ?? 'null') as RunEvent };
}

/** Runs' events in Redis Streams. */
export class RedisRunEventLog implements RunEventLog {
  private readonly readers = new Set<RedisClient>();

  /** @param options - connection, keys, TTL, trim length and the reader factory */
  private readonly scripted: ScriptedRedis;

  constructor(private readonly options: RedisRunEventLogOptions) {
    options.redis.defineCommand('mthdsAppendRunEvents', { numberOfKeys: 2, lua: APPEND_RUN_EVENTS });
    this.scripted = options.redis as ScriptedRedis;
  }

  append(runId: string, events: readonly RunEvent[], progress?: RunProgress): Promise<void> {
    return reachable(async () => {
      const { keys, ttlSeconds, maxEventsPerRun } = this.options;
      await this.scripted.mthdsAppendRunEvents(
        keys.events(runId),
        keys.progress(runId),
        maxEventsPerRun,
        ttlSeconds,
        progress ? JSON.stringify(progress) : '',
        ...events.map((event) => JSON.stringify(event)),
      );
    });
  }

  progress(runId: string): Promise<RunProgress | undefined> {
    return reachable(async () => {
      const text = await this.options.redis.get(this.options.keys.progress(runId));
      return text === null ? undefined : (JSON.parse(text) as RunProgress);
    });
  }

  async *follow(runId: string, options: FollowOptions): AsyncGenerator<LoggedRunEvent, void> {
    if (options.wait) yield* this.waitFor(runId, options);
    else yield* this.readKept(runId, options.after ?? '0');
  }

  /** Disconnect every reader still open (their followers end). */
  close(): void {
    for (const reader of this.readers) reader.disconnect();
    this.readers.clear();
  }

  private async *readKept(runId: string, after: string): AsyncGenerator<LoggedRunEvent, void> {
    const stream = this.options.keys.events(runId);
    let cursor = after;
    for (;;) {
      const reply = await reachable(
        () => this.options.redis.xread('COUNT', READ_BATCH, 'STREAMS', stream, cursor) as Promise<XReadReply>,
      );
      const entries = reply?.[0]?.[1] ?? [];
      for (const entry of entries) {
        const next = logged(entry);
        yield next;
        if (next.event.type === 'run:finished') return;
        cursor = next.id;
      }
      if (entries.length < READ_BATCH) return;
    }
  }

  private async *waitFor(runId: string, options: FollowOptions): AsyncGenerator<LoggedRunEvent, void> {
    const { signal } = options;
    if (signal.aborted) return;
    const reader = this.options.openReader();
    this.readers.add(reader);
    const onAbort = () => reader.disconnect();
    signal.addEventListener('abort', onAbort, { once: true });
    const stream = this.options.keys.events(runId);
    let cursor = options.after ?? '0';
    try {
      while (!signal.aborted) {
        const reply = await reachable(
          () => reader.xread('COUNT', READ_BATCH, 'BLOCK', BLOCK_MS, 'STREAMS', stream, cursor) as Promise<XReadReply>,
        ).catch((error: unknown) => {
          if (signal.aborted) return null;
          throw error;
        });
        for (const entry of reply?.[0]?.[1] ?? []) {
          const next = logged(entry);
          yield next;
          if (next.event.type === 'run:finished') return;
          cursor = next.id;
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.readers.delete(reader);
      reader.disconnect();
    }
  }
}
