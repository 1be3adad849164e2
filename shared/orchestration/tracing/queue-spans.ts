/**
 * The spans of queue jobs (docs/tracing.md#one-trace-per-run), in the OpenTelemetry messaging conventions: the enqueue
 * of a run is a producer span, and the `traceparent` of the work that queues a job — that span, a controller's pipe
 * for a fanned-out child, the run for a callback's retries — goes into the job's payload as `trace_parent`, *inside*
 * its seal (docs/run-ownership.md#queue-jobs). Sealing it means a job edited through BullMQ's API cannot graft a run
 * into someone else's trace (or another run's into theirs): the worker continues the trace the service wrote or
 * refuses the job. A worker then processes a run or a child job in a consumer span continued from it.
 *
 * Everything here goes through the OpenTelemetry API only and does nothing while tracing is off.
 */
import { context, type Link, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { toMthdsError } from '../../errors/index.js';
import { contextFromTraceParent, serviceTracer, traceParentOf, tracingOn } from '../../observability/index.js';

/** A payload that may carry the W3C `traceparent` of the work that queued it. */
export interface TraceCarrier {
  trace_parent?: string | undefined;
}

/**
 * The payload with the active span's `traceparent` as its `trace_parent` (to seal with it); the payload as it is when
 * no span is active or it carries one already.
 * @param payload - a job's payload
 */
export function withTraceParent<T extends TraceCarrier>(payload: T): T {
  if (!tracingOn() || payload.trace_parent) return payload;
  const traceParent = traceParentOf();
  return traceParent ? { ...payload, trace_parent: traceParent } : payload;
}

function messagingAttributes(
  queue: string,
  operation: 'send' | 'process',
  jobId: string | undefined,
): Record<string, string> {
  return {
    'messaging.system': 'bullmq',
    'messaging.operation.type': operation,
    'messaging.operation.name': operation,
    'messaging.destination.name': queue,
    ...(jobId ? { 'messaging.message.id': jobId } : {}),
  };
}

/**
 * Run an enqueue in a producer span `send {queue}`, active while it runs so the payload sealed inside carries it.
 * @param queue - the queue's name
 * @param attributes - the run id and whatever else names the job
 * @param work - the enqueue
 * @returns what the enqueue resolves to; its error, recorded on the span
 */
export async function traceEnqueue<T>(
  queue: string,
  attributes: { runId: string; jobId: string },
  work: () => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return work();
  const span = serviceTracer().startSpan(`send ${queue}`, {
    kind: SpanKind.PRODUCER,
    attributes: { ...messagingAttributes(queue, 'send', attributes.jobId), 'mthds.run.id': attributes.runId },
  });
  return endWith(span, () => context.with(trace.setSpan(context.active(), span), work));
}

/** What a consumer span is told about the job it processes. */
export interface ConsumedJob {
  queue: string;
  jobId: string | undefined;
  runId: string;
  /** The attempt, from 1 (`attemptsMade + 1`). */
  attempt: number;
  /** The job's verified `trace_parent`. */
  traceParent: string | undefined;
  /** Span attributes of the job's own (the pipe of a child, a quarantined retake). */
  attributes?: Record<string, string | number | boolean>;
}

/**
 * Process a job in a consumer span `process {queue}` continued from the job's `trace_parent` (a new trace without
 * one), active while it runs so every span and log line of the attempt belongs to it. A retry is visible as an
 * attempt above 1 and a `run.retrying` event on the attempt that failed; a stop (cancel, deadline) as a `run.stopped`
 * event; a failure as the span's error status with its `error.type`.
 * @param job - the job
 * @param work - the attempt
 */
export async function traceConsumedJob<T>(job: ConsumedJob, work: () => Promise<T>): Promise<T> {
  if (!tracingOn()) return work();
  const span = serviceTracer().startSpan(
    `process ${job.queue}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        ...messagingAttributes(job.queue, 'process', job.jobId),
        'mthds.run.id': job.runId,
        'mthds.run.attempt': job.attempt,
        ...job.attributes,
      },
    },
    contextFromTraceParent(job.traceParent),
  );
  return endWith(span, () => context.with(trace.setSpan(context.active(), span), work), consumerFailure);
}

/**
 * Whether an error is BullMQ's `UnrecoverableError`, by name: the job ends without a retry. (This module loads no
 * BullMQ, so that a process in direct mode never does.)
 */
function unrecoverable(error: unknown): error is Error {
  return error instanceof Error && error.name === 'UnrecoverableError';
}

/** The `error.type` of a BullMQ unrecoverable end (`Type: message`), or of any error. */
function errorTypeOf(error: unknown): string {
  if (unrecoverable(error)) return /^(\w+):/.exec(error.message)?.[1] ?? 'UnrecoverableError';
  return toMthdsError(error).error_type;
}

function consumerFailure(span: Span, error: unknown): void {
  const errorType = errorTypeOf(error);
  span.setAttribute('error.type', errorType);
  if (errorType === 'RunCancelledError' || errorType === 'RunTimedOutError')
    span.addEvent('run.stopped', { 'mthds.run.stop': errorType });
  else if (!unrecoverable(error)) span.addEvent('run.retrying', { 'error.type': errorType });
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
}

function defaultFailure(span: Span, error: unknown): void {
  const errorType = errorTypeOf(error);
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
}

async function endWith<T>(
  span: Span,
  work: () => Promise<T>,
  onFailure: (span: Span, error: unknown) => void = defaultFailure,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    onFailure(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** What a callback delivery's span is told. */
export interface TracedDelivery {
  runId: string;
  url: string;
  attempt: number;
  /** The run's `traceparent`, carried by the delivery's job. */
  traceParent: string | undefined;
}

/**
 * Make one callback delivery attempt in a client span `callback {host}`, linked to its run's span (a retry taken by
 * another worker later is its own trace's root; the first attempt, made by the run's worker, is also its child).
 * @param delivery - the run, URL, attempt and the run's `traceparent`
 * @param work - the attempt, resolving to its outcome
 */
export async function traceCallbackDelivery<T extends { outcome: string; status?: number }>(
  delivery: TracedDelivery,
  work: () => Promise<T>,
): Promise<T> {
  if (!tracingOn()) return work();
  const run = delivery.traceParent ? trace.getSpanContext(contextFromTraceParent(delivery.traceParent)) : undefined;
  const links: Link[] = run ? [{ context: run }] : [];
  let host = 'invalid';
  try {
    host = new URL(delivery.url).host;
  } catch {
    // the job's schema allows URLs only; a name is kept for the span either way
  }
  const span = serviceTracer().startSpan(`callback ${host}`, {
    kind: SpanKind.CLIENT,
    links,
    attributes: {
      'http.request.method': 'POST',
      'server.address': host,
      'mthds.run.id': delivery.runId,
      'mthds.callback.attempt': delivery.attempt,
    },
  });
  return endWith(span, async () => {
    const result = await context.with(trace.setSpan(context.active(), span), work);
    span.setAttribute('mthds.callback.outcome', result.outcome);
    if (result.status !== undefined) span.setAttribute('http.response.status_code', result.status);
    if (result.outcome !== 'delivered') span.setStatus({ code: SpanStatusCode.ERROR, message: result.outcome });
    return result;
  });
}
