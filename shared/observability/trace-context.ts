/**
 * The trace context of the work in progress, through the vendor-neutral OpenTelemetry API only (docs/tracing.md): the
 * tracer of the service's spans, the W3C `traceparent` of the active span (carried by queue jobs and sent on
 * responses), the context a carried `traceparent` continues, and the trace fields of log lines. With tracing off
 * every function here answers "nothing" (no span is ever active).
 */
import { type Context, context, propagation, ROOT_CONTEXT, type Tracer, trace } from '@opentelemetry/api';
import { IMPLEMENTATION_VERSION } from '../version.js';
import { TRACER_NAME } from './tracing.js';

/** A W3C `traceparent` value: version 00, 32 hex digits of trace id, 16 of parent span id, 2 of flags. */
export const TRACEPARENT_PATTERN = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** The tracer of the service's own spans (a no-op tracer while tracing is off). */
export function serviceTracer(): Tracer {
  return trace.getTracer(TRACER_NAME, IMPLEMENTATION_VERSION);
}

/**
 * The W3C `traceparent` of a context's span.
 * @param from - the context; the active one by default
 * @returns the header value, or undefined when no span is recording in it (tracing off, or sampled out upstream and
 *   nothing to propagate)
 */
export function traceParentOf(from: Context = context.active()): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(from, carrier);
  return carrier['traceparent'];
}

/**
 * The context a carried `traceparent` continues (a queue job's, a request's header).
 * @param traceParent - the header value; anything not a valid `traceparent` gives the root context (a new trace)
 */
export function contextFromTraceParent(traceParent: string | undefined): Context {
  if (!traceParent || !TRACEPARENT_PATTERN.test(traceParent)) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent: traceParent });
}

/** The trace id of the active span (32 hex digits), or undefined when none is active (tracing off). */
export function activeTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}

/**
 * The fields a log line written in a span carries (a pino mixin): `trace_id` and `span_id`; none outside a span.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
