/**
 * `GET /v1/runs/{id}/events`: one run's events as Server-Sent Events (docs/run-events.md), in every orchestration
 * mode. Only the run's owner may read them; anyone else gets the 404 of an unknown id (docs/run-ownership.md).
 *
 * A run in flight streams its events as they come, from the first kept or after `Last-Event-ID`, and the stream ends
 * after the terminal `run:finished`. A finished run replays what is kept after `Last-Event-ID` and ends; when nothing
 * is left to send after a `Last-Event-ID`, it answers 204 (which tells an `EventSource` not to reconnect), and when its
 * log lacks the terminal event, one is sent built from the run record, without an id.
 *
 * Bounds (docs/run-events.md#limits): at most `RUN_EVENT_STREAMS_MAX` streams open at once in this process (503
 * `ServerBusyError` beyond), a heartbeat comment every `RUN_EVENT_STREAM_HEARTBEAT_MS`, and a stream that sent no
 * event for `RUN_EVENT_STREAM_IDLE_MS` ends.
 */
import { Router } from 'express';
import { z } from 'zod';
import { disclosedMessage, disclosedReport, type ErrorDisclosure, ServerBusyError } from '../../shared/errors/index.js';
import type { Logger } from '../../shared/observability/index.js';
import {
  type LoggedRunEvent,
  RUN_EVENT_ID,
  type RunEvent,
  type RunEventLog,
  type RunRecord,
  type RunStore,
  runError,
  runFinishedEvent,
} from '../../shared/orchestration/index.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { parseRequest } from '../request-schema.js';
import { readOwnedRun } from '../run-ownership.js';
import { SseStream } from '../sse-stream.js';
import { disclosedRunError, runEnded, runStatus } from './runs.js';

/** `Last-Event-ID`: an id this route sent. */
const LAST_EVENT_ID = z.string().regex(RUN_EVENT_ID, 'must be an event id this stream sent (<ms>-<seq>)');

/** `GET /v1/runs/{runId}/events`, as the OpenAPI document describes it. */
export const RUN_EVENTS_ROUTE: RouteSpec = {
  method: 'get',
  path: '/v1/runs/{runId}/events',
  operationId: 'get_run_events_v1_runs__run_id__events_get',
  tag: 'runs',
  summary: 'Run events',
  description:
    'The run’s events as Server-Sent Events: `run:started`, `pipe:started`, `pipe:finished`, `pipe:failed`, then the terminal `run:finished`, after which the stream ends (docs/run-events.md). Send `Last-Event-ID` to resume; 204 when nothing is left after it. Another caller’s run answers as an unknown one (docs/run-ownership.md).',
  params: z.object({
    runId: z.string().meta({ description: 'The `pipeline_run_id` of a run this caller started.' }),
  }),
  responses: {
    200: {
      description: 'The event stream (`text/event-stream`; each event has an `id`, an `event` type and JSON `data`).',
      schema: z.string(),
      contentType: 'text/event-stream',
    },
    204: { description: 'The run finished and no event is left after `Last-Event-ID`.' },
  },
  problems: ['RunNotFoundError', 'ValidationError', 'ServerBusyError', 'QueueUnavailableError'],
};

/** Seconds a client refused for lack of stream slots should wait. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** What the route needs. */
export interface RunEventsRouterOptions {
  /** The run records (ownership, state). */
  store: RunStore;
  /** The runs' events. */
  events: RunEventLog;
  /** `ERROR_DISCLOSURE`: how much of an error callers see (spec §7.5). */
  disclosure: ErrorDisclosure;
  /** Most streams open at once (`RUN_EVENT_STREAMS_MAX`). */
  maxStreams: number;
  /** Bound of a stream without events, in ms (`RUN_EVENT_STREAM_IDLE_MS`). */
  idleMs: number;
  /** Period of the heartbeat comments, in ms (`RUN_EVENT_STREAM_HEARTBEAT_MS`). */
  heartbeatMs: number;
  /** Where a stream that broke off (its store failed) is logged. */
  logger: Logger;
}

function lastEventId(header: string | undefined): string | null {
  if (header === undefined) return null;
  return parseRequest(LAST_EVENT_ID, header, 'header.Last-Event-ID');
}

/** An event as a caller may see it: error messages disclosed as `ERROR_DISCLOSURE` says. */
function disclosedEvent(event: RunEvent, disclosure: ErrorDisclosure): RunEvent {
  if (event.type === 'pipe:failed') {
    const message = disclosedMessage(event.error.error_type, event.error.message, disclosure);
    return { ...event, error: { ...event.error, message } };
  }
  if (event.type === 'run:finished' && event.error)
    return { ...event, error: runError(disclosedReport(event.error, disclosure)) };
  return event;
}

/** The terminal event of a finished run whose log lacks one, from its record. */
function recordedEnd(record: RunRecord, disclosure: ErrorDisclosure): RunEvent {
  const recorded = runStatus(record);
  const status = recorded === 'COMPLETED' || recorded === 'CANCELLED' || recorded === 'TIMED_OUT' ? recorded : 'FAILED';
  const at = Date.parse(record.finished_at ?? record.created_at);
  const error = disclosedRunError(record, disclosure) ?? null;
  // a completed run's usage is in its result, a failed or stopped run's on its record
  return runFinishedEvent(record.pipeline_run_id, at, 0, error, status, record.result?.usage ?? record.usage ?? null);
}

/**
 * Router serving the event stream route.
 * @param options - store, event log, disclosure, stream bounds and logger
 */
export function runEventsRouter(options: RunEventsRouterOptions): Router {
  const { store, events, disclosure } = options;
  let open = 0;
  const router = Router();
  router.get('/v1/runs/:runId/events', async (req, res) => {
    const record = await readOwnedRun(store, req.params.runId, res.locals.identity);
    const after = lastEventId(req.get('Last-Event-ID'));
    if (open >= options.maxStreams) {
      throw new ServerBusyError(
        `Too many run event streams are open on this server (RUN_EVENT_STREAMS_MAX = ${options.maxStreams}); retry later, or poll GET /v1/runs/${record.pipeline_run_id}/status.`,
        { retryable: true, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS },
      );
    }
    open += 1;
    const stop = new AbortController();
    res.on('close', () => stop.abort());
    const ended = runEnded(record);
    const followed = events.follow(record.pipeline_run_id, { after, wait: !ended, signal: stop.signal });
    try {
      const first = ended ? await followed.next() : undefined;
      if (first?.done && after !== null) {
        res.status(204).end();
        return;
      }
      const stream = new SseStream(res, options, stop);
      let terminal = false;
      const send = async (logged: LoggedRunEvent) => {
        terminal = logged.event.type === 'run:finished';
        await stream.send(logged.event.type, disclosedEvent(logged.event, disclosure), logged.id);
      };
      try {
        if (!first?.done) {
          if (first) await send(first.value);
          for await (const logged of followed) await send(logged);
        }
        if (ended && !terminal) await stream.send('run:finished', recordedEnd(record, disclosure));
      } catch (error) {
        if (!stop.signal.aborted)
          options.logger.warn({ err: error, pipeline_run_id: record.pipeline_run_id }, 'run:events stream broke off');
      } finally {
        stream.end();
      }
    } finally {
      await followed.return();
      open -= 1;
    }
  });
  return router;
}
