/**
 * OpenTelemetry tracing of a process (docs/tracing.md). Off unless `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set: then no SDK module is even loaded, the OpenTelemetry API stays the
 * no-op it is by default, and {@link tracingOn} answers false so the hooks of the hot paths skip their work. On, the
 * process registers a tracer provider (W3C trace context, `AsyncLocalStorage` context) exporting its spans in batches
 * over OTLP/HTTP — protobuf by default, JSON with `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` (or `OTEL_EXPORTER_OTLP_PROTOCOL`)
 * `http/json` — and the SDK reads the other standard `OTEL_*` variables itself (sampler, headers, timeouts, batch
 * sizes, resource attributes). Outbound HTTP requests made with `fetch` or undici (provider calls, callbacks) are
 * client spans of the maintained undici instrumentation. Each process role is its own service of the one trace: `mthds-runner-api` and
 * `mthds-runner-worker`, unless `OTEL_SERVICE_NAME` names it.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { IMPLEMENTATION_VERSION } from '../version.js';

/** A started (or skipped) tracing setup. */
export interface Tracing {
  /** True when spans are exported. */
  readonly enabled: boolean;
  /** Export the spans ended so far now rather than at the next batch; resolves at once when tracing is off. */
  flush(): Promise<void>;
  /** Export what is still buffered and unregister the provider; resolves at once when tracing is off. */
  shutdown(): Promise<void>;
}

/** The instrumentation scope of the service's own spans. */
export const TRACER_NAME = 'mthds-runner';

let active = false;

/**
 * Whether this process exports spans: the hooks in the hot paths (the run worker, the pipe runner, the inference
 * decorator) test it first and do nothing more when it is false.
 */
export function tracingOn(): boolean {
  return active;
}

/**
 * Whether prompt and completion content may go on `chat` spans: only when `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`
 * is `true` (the GenAI conventions' opt-in; prompts and answers hold the callers' data).
 * @param environment - the process environment
 */
export function captureGenAiContent(environment: NodeJS.ProcessEnv): boolean {
  return environment['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT']?.toLowerCase() === 'true';
}

/**
 * Whether the environment turns tracing on: an OTLP endpoint is set, for every signal or for traces.
 * @param environment - the process environment
 */
function tracingConfigured(environment: NodeJS.ProcessEnv): boolean {
  return Boolean(environment['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || environment['OTEL_EXPORTER_OTLP_ENDPOINT']);
}

const OFF: Tracing = { enabled: false, flush: () => Promise.resolve(), shutdown: () => Promise.resolve() };

/**
 * The URL spans are posted to: the traces endpoint as given, else `/v1/traces` under the general endpoint.
 * @param environment - an environment with one of the two set
 */
function tracesUrl(environment: NodeJS.ProcessEnv): string {
  const traces = environment['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  if (traces) return traces;
  return `${(environment['OTEL_EXPORTER_OTLP_ENDPOINT'] ?? '').replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Start tracing for a process when its environment asks for it (see the module comment).
 * @param role - the process role: `api` or `worker`, the default service name's suffix
 * @param environment - the process environment: its endpoint, protocol and service name (the SDK reads the other
 *   `OTEL_*` variables from `process.env` itself)
 * @returns the setup; shut it down last on exit so buffered spans are sent
 */
export async function startTracing(role: 'api' | 'worker', environment: NodeJS.ProcessEnv): Promise<Tracing> {
  if (!tracingConfigured(environment) || active) return OFF;
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  const protocol =
    environment['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? environment['OTEL_EXPORTER_OTLP_PROTOCOL'] ?? 'http/protobuf';
  const url = tracesUrl(environment);
  const exporter =
    protocol === 'http/json'
      ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter({ url })
      : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter({ url });
  const resource = resources
    .defaultResource()
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
    .merge(
      resources.resourceFromAttributes({
        'service.name': environment['OTEL_SERVICE_NAME'] || `mthds-runner-${role}`,
        'service.version': IMPLEMENTATION_VERSION,
      }),
    );
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register();
  // outbound HTTP (provider calls through fetch, callbacks, document fetches) as client spans under the span that
  // makes the request: undici reports its requests on diagnostics channels, which bundling does not hide
  const undici = new (await import('@opentelemetry/instrumentation-undici')).UndiciInstrumentation();
  active = true;
  return {
    enabled: true,
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      active = false;
      undici.disable();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
