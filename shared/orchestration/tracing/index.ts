/**
 * Public surface of the orchestration's tracing (docs/tracing.md): the spans of queue jobs and of pipe runs, through
 * the OpenTelemetry API only (the SDK is set up by `shared/observability/tracing.ts`).
 */
export { instrumentedObserver } from './pipe-spans.js';
export {
  traceCallbackDelivery,
  traceConsumedJob,
  traceEnqueue,
  withTraceParent,
} from './queue-spans.js';
