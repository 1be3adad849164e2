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
import type { FollowOptions, LoggedRunEvent, RunEventLog, SubmissionOf } from './run-event-log.js';

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
  mthdsAppendRunEventsOf(...keysThenArgs: (string | number)[]): Promise<number>;
};

/** Where {@link appendRunEventsLua} finds its keys and arguments: Lua expressions, and an index into `ARGV`. */
export interface RunEventsLuaArgs {
  /** The run's event stream key. */
  stream: string;
  /** The run's progress key. */
  progress: string;
  /** Most entries kept (`MAXLEN`). */
  maxLen: string;
  /** TTL of the stream and the progress, in seconds. */
  ttl: string;
  /** The progress's JSON text, empty for none. */
  progressText: string;
  /** Index in `ARGV` of the first event's JSON text; the events run to the end of `ARGV`, oldest first. */
  firstEvent: number;
}

/**
 * The Lua that appends a run's events (`XADD … MAXLEN` each), resets its stream's TTL and stores its progress: the
 * event log's own append, and the events a run's end writes with its record (`FINISH_RUN_ONCE`). Appends nothing, and
 * touches no key, when `ARGV` holds no event.
 * @param at - where the keys and arguments are
 */
export function appendRunEventsLua(at: RunEventsLuaArgs): string {
  return `
if #ARGV >= ${at.firstEvent} then
  for i = ${at.firstEvent}, #ARGV do
    redis.call('XADD', ${at.stream}, 'MAXLEN', ${at.maxLen}, '*', 'event', ARGV[i])
  end
  redis.call('EXPIRE', ${at.stream}, ${at.ttl})
  if ${at.progressText} ~= '' then redis.call('SET', ${at.progress}, ${at.progressText}, 'EX', ${at.ttl}) end
end`;
}

/**
 * Append a run's events and store its progress, in one round trip (a script, not a MULTI transaction: one command to
 * encode and parse instead of three per event).
 *
 * KEYS[1] event stream, KEYS[2] progress. ARGV[1] most entries kept (`MAXLEN`), ARGV[2] TTL in seconds, ARGV[3] the
 * progress's JSON text or empty for none, ARGV[4…] the events' JSON texts, oldest first. Returns the events appended.
 */
const APPEND_RUN_EVENTS = `${appendRunEventsLua({
  stream: 'KEYS[1]',
  progress: 'KEYS[2]',
  maxLen: 'ARGV[1]',
  ttl: 'ARGV[2]',
  progressText: 'ARGV[3]',
  firstEvent: 4,
})}
return #ARGV - 3`;

/**
 * {@link APPEND_RUN_EVENTS} for one submission of the run id: appends only while the run's record, when one is kept,
 * is that submission's.
 *
 * KEYS[1] event stream, KEYS[2] progress, KEYS[3] run record. ARGV[1] most entries kept, ARGV[2] TTL in seconds,
 * ARGV[3] the progress's JSON text or empty, ARGV[4] and ARGV[5] the submission's `created_at` and `request_id`,
 * ARGV[6…] the events' JSON texts, oldest first. Returns the events appended (0 for another submission's record).
 */
const APPEND_RUN_EVENTS_OF = `
local text = redis.call('GET', KEYS[3])
if text then
  local held = cjson.decode(text)
  if held.created_at ~= ARGV[4] or held.request_id ~= ARGV[5] then return 0 end
end
${appendRunEventsLua({
  stream: 'KEYS[1]',
  progress: 'KEYS[2]',
  maxLen: 'ARGV[1]',
  ttl: 'ARGV[2]',
  progressText: 'ARGV[3]',
  firstEvent: 6,
})}
return #ARGV - 5`;

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
    options.redis.defineCommand('mthdsAppendRunEventsOf', { numberOfKeys: 3, lua: APPEND_RUN_EVENTS_OF });
    this.scripted = options.redis as ScriptedRedis;
  }

  append(runId: string, events: readonly RunEvent[], progress?: RunProgress, of?: SubmissionOf): Promise<void> {
    return reachable(async () => {
      const { keys, ttlSeconds, maxEventsPerRun } = this.options;
      const progressText = progress ? JSON.stringify(progress) : '';
      const texts = events.map((event) => JSON.stringify(event));
      const stream = keys.events(runId);
      const kept = keys.progress(runId);
      if (!of) {
        await this.scripted.mthdsAppendRunEvents(stream, kept, maxEventsPerRun, ttlSeconds, progressText, ...texts);
        return;
      }
      const record = keys.run(runId);
      const guard = [of.created_at, of.request_id];
      await this.scripted.mthdsAppendRunEventsOf(
        stream,
        kept,
        record,
        maxEventsPerRun,
        ttlSeconds,
        progressText,
        ...guard,
        ...texts,
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
