/**
 * A backend decorator that observes each inference call in the OpenTelemetry GenAI semantic conventions
 * (docs/tracing.md#provider-calls): it records the `gen_ai_client_token_usage` and
 * `gen_ai_client_operation_duration_seconds` histograms always, and while tracing is on makes each call a client span
 * named `{operation} {model}` (`chat gpt-4o-mini`) with the `gen_ai.*` attributes, its token counts and, on failure,
 * `error.type`. The span is the active one while the call runs, so the rate-limit waits inside it land on it as
 * events. Prompts and answers go on the span only when the deployment opts in
 * (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`): they hold the callers' data.
 */
import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { toMthdsError } from '../errors/index.js';
import { type Metrics, serviceTracer, tracingOn } from '../observability/index.js';
import type { InferenceBackend, LlmRequest, TokenUsage } from './types.js';

/** The conventions' provider names of the backends whose SDK has one; any other backend is named as configured. */
const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: 'openai',
  azure_openai: 'azure.ai.openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  gemini: 'gcp.gemini',
};

/**
 * The GenAI provider name of a serving backend.
 * @param backend - the backend's configured name (`TokenUsage.backend`)
 */
function genAiProviderName(backend: string): string {
  return PROVIDER_NAMES[backend] ?? backend;
}

type Operation = 'chat' | 'generate_content' | 'search';

/** What one call asks, for its span and metrics. */
interface CallFacts {
  operation: Operation;
  pipeCode: string;
  modelRef: string | undefined;
  /** The prompt messages, put on the span only with content capture on. */
  messages?: () => unknown;
}

/** What the decorator is told once. */
export interface GenAiTelemetryOptions {
  /** The process metrics the histograms are in. */
  metrics: Metrics;
  /** Put prompts and answers on the spans (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`). */
  captureContent: boolean;
}

function promptMessages(request: LlmRequest): unknown {
  return [
    ...(request.systemPrompt ? [{ role: 'system', parts: [{ type: 'text', content: request.systemPrompt }] }] : []),
    { role: 'user', parts: [{ type: 'text', content: request.userPrompt }] },
  ];
}

function answerMessages(result: { text?: unknown; object?: unknown }): unknown {
  const content = typeof result.text === 'string' ? result.text : JSON.stringify(result.object ?? null);
  return [{ role: 'assistant', parts: [{ type: 'text', content }] }];
}

/**
 * Wrap a backend so each call is observed in the GenAI conventions (see the module comment).
 * @param backend - the backend to observe (the metered one)
 * @param options - the metrics and the content opt-in
 */
export function genAiTelemetry(backend: InferenceBackend, options: GenAiTelemetryOptions): InferenceBackend {
  const { metrics, captureContent } = options;
  const observe = async <T extends { usage: TokenUsage; text?: unknown; object?: unknown }>(
    facts: CallFacts,
    call: () => Promise<T>,
  ): Promise<T> => {
    const startedAt = performance.now();
    const span: Span | undefined = tracingOn()
      ? serviceTracer().startSpan(`${facts.operation} ${facts.modelRef ?? 'default'}`, {
          kind: SpanKind.CLIENT,
          attributes: {
            'gen_ai.operation.name': facts.operation,
            ...(facts.modelRef ? { 'gen_ai.request.model': facts.modelRef } : {}),
            'mthds.pipe.code': facts.pipeCode,
          },
        })
      : undefined;
    if (span && captureContent && facts.messages)
      span.setAttribute('gen_ai.input.messages', JSON.stringify(facts.messages()));
    try {
      const result = await (span ? context.with(trace.setSpan(context.active(), span), call) : call());
      const { usage } = result;
      const provider = genAiProviderName(usage.backend ?? backend.name);
      const seconds = (performance.now() - startedAt) / 1000;
      const labels = {
        gen_ai_operation_name: facts.operation,
        gen_ai_provider_name: provider,
        gen_ai_request_model: usage.model,
      };
      // no leading spread that adds members (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
      metrics.genAiOperationDuration.observe(Object.assign({ error_type: '' }, labels), seconds);
      metrics.genAiTokenUsage.observe(Object.assign({ gen_ai_token_type: 'input' }, labels), usage.input_tokens);
      metrics.genAiTokenUsage.observe(Object.assign({ gen_ai_token_type: 'output' }, labels), usage.output_tokens);
      if (span) {
        span.updateName(`${facts.operation} ${usage.model}`);
        span.setAttributes({
          'gen_ai.provider.name': provider,
          'gen_ai.request.model': usage.model,
          'gen_ai.response.model': usage.model_id ?? usage.model,
          'gen_ai.usage.input_tokens': usage.input_tokens,
          'gen_ai.usage.output_tokens': usage.output_tokens,
          ...(typeof usage.cost === 'number' ? { 'mthds.inference.cost_usd': usage.cost } : {}),
        });
        if (captureContent) span.setAttribute('gen_ai.output.messages', JSON.stringify(answerMessages(result)));
      }
      return result;
    } catch (error) {
      const errorType = toMthdsError(error).error_type;
      metrics.genAiOperationDuration.observe(
        {
          gen_ai_operation_name: facts.operation,
          gen_ai_provider_name: genAiProviderName(backend.name),
          gen_ai_request_model: facts.modelRef ?? 'default',
          error_type: errorType,
        },
        (performance.now() - startedAt) / 1000,
      );
      span?.setAttribute('error.type', errorType);
      span?.setStatus({ code: SpanStatusCode.ERROR, message: errorType });
      throw error;
    } finally {
      span?.end();
    }
  };
  return {
    name: backend.name,
    isMock: backend.isMock,
    generateText: (request) =>
      observe(
        {
          operation: 'chat',
          pipeCode: request.pipeCode,
          modelRef: request.modelRef,
          messages: () => promptMessages(request),
        },
        () => backend.generateText(request),
      ),
    generateObject: (request) =>
      observe(
        {
          operation: 'chat',
          pipeCode: request.pipeCode,
          modelRef: request.modelRef,
          messages: () => promptMessages(request),
        },
        () => backend.generateObject(request),
      ),
    ...(backend.generateImages
      ? {
          generateImages: (request) =>
            observe({ operation: 'generate_content', pipeCode: request.pipeCode, modelRef: request.modelRef }, () =>
              backend.generateImages!(request),
            ),
        }
      : {}),
    ...(backend.search
      ? {
          search: (request) =>
            observe({ operation: 'search', pipeCode: request.pipeCode, modelRef: request.modelRef }, () =>
              backend.search!(request),
            ),
        }
      : {}),
    ...(backend.quote ? { quote: (request) => backend.quote!(request) } : {}),
  };
}
