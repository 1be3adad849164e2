/**
 * Stops across processes on Redis pub/sub (docs/cancellation.md#how-a-run-stops): one channel per deployment,
 * `<QUEUE_PREFIX>:run-stops`, on which a stop is published as one message for a batch of runs
 * (`{"state":"CANCELLED","runs":[[run id, request id, created at ms], …]}`); every API and worker process subscribes
 * on a connection of its own and aborts the holds it has of those runs.
 *
 * Pub/sub delivers to the processes subscribed at the moment of the publish, not later. A stop is recorded before it
 * is published (the record is what the next admission of a run's job reads), and a worker holds a run before its job's
 * admission, so a hold either sees the stopped record at admission or is there when the stop is published. A message
 * missed while the subscription was down is made up for when it is back: the records of the runs held then are read,
 * and those that ended stopped are aborted.
 */

import { z } from 'zod';
import type { RedisClient } from '../../config/index.js';
import { swallowedErrors } from '../../observability/index.js';
import type { QueueKeys } from '../queue/queue-keys.js';
import { whenQueueReachable } from '../queue/queue-outage.js';
import type { RunRecord } from '../registry/index.js';
import type { RunControls } from './run-controls.js';
import { isStopState, type RunRef, type RunStopState } from './run-stop.js';
import type { StopBroadcast } from './stop-broadcast.js';

/** Runs named per published message. */
const RUNS_PER_MESSAGE = 500;

const STOP_MESSAGE = z.object({
  state: z.enum(['CANCELLED', 'TIMED_OUT']),
  runs: z.array(z.tuple([z.string(), z.string(), z.number().int()])),
});

/** What the channel is built from. */
export interface RedisStopChannelOptions {
  /** The connection stops are published on (any non-subscribed connection). */
  publisher: RedisClient;
  /** A connection of its own, which the channel puts in subscriber mode (a `worker` one: it reconnects). */
  subscriber: RedisClient;
  keys: QueueKeys;
  /** This process's runs in flight. */
  controls: RunControls;
  /** Reads a run's record, to make up for stops published while the subscription was down. */
  records: { get(runId: string): Promise<RunRecord | undefined> };
}

/** The stops of one deployment, published and heard on Redis. */
export class RedisStopChannel implements StopBroadcast {
  private readonly subscribed: Promise<unknown>;

  /** @param options - connections, keys, the process's holds and the record reader */
  constructor(private readonly options: RedisStopChannelOptions) {
    const { subscriber, keys, controls } = options;
    subscriber.on('message', (channel: string, text: string) => {
      if (channel !== keys.runStops) return;
      const message = STOP_MESSAGE.safeParse(safeJson(text));
      if (!message.success) return;
      const runs = message.data.runs.map(([pipelineRunId, requestId, createdAt]) => ({
        pipelineRunId,
        requestId,
        createdAt,
      }));
      controls.abort(runs, message.data.state);
    });
    let connected = false;
    subscriber.on('ready', () => {
      if (connected) void this.catchUp();
      connected = true;
    });
    this.subscribed = subscriber.subscribe(keys.runStops);
    this.subscribed.catch((error: unknown) => swallowedErrors.report('run-stops:subscribe', error));
  }

  /** Resolves once the subscription is in place (tests wait for it). */
  ready(): Promise<void> {
    return this.subscribed.then(() => undefined);
  }

  async announce(runs: readonly RunRef[], state: RunStopState): Promise<void> {
    this.options.controls.abort(runs, state);
    const { publisher, keys } = this.options;
    await whenQueueReachable(
      async () => {
        for (let start = 0; start < runs.length; start += RUNS_PER_MESSAGE) {
          const batch = runs.slice(start, start + RUNS_PER_MESSAGE);
          await publisher.publish(
            keys.runStops,
            JSON.stringify({ state, runs: batch.map((run) => [run.pipelineRunId, run.requestId, run.createdAt]) }),
          );
        }
      },
      (reason) => `The stop could not be published (Redis): ${reason}. The run is recorded stopped; retry later.`,
    );
  }

  /** The subscription is back: stop the held runs whose record ended stopped meanwhile. */
  private async catchUp(): Promise<void> {
    const held = this.options.controls.held();
    const records = await Promise.all(
      held.map((run) => this.options.records.get(run.pipelineRunId).catch(() => undefined)),
    );
    for (const [index, record] of records.entries()) {
      const run = held[index]!;
      if (!record || !isStopState(record.state)) continue;
      if (record.request_id !== run.requestId || Date.parse(record.created_at) !== run.createdAt) continue;
      this.options.controls.abort([run], record.state);
    }
  }

  /** Leave the channel and drop its connection. */
  close(): void {
    this.options.subscriber.disconnect();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
