/**
 * Tracing in one process (docs/tracing.md), exported over OTLP/HTTP JSON to a fake collector on 127.0.0.1: the pipe
 * spans made from a run's reports (controllers parent their steps, a replayed step and a failed one marked), the
 * `chat` spans of the GenAI decorator with their token counts (and the content only with the opt-in), the GenAI
 * histograms, the consumer span of a retried and of a stopped attempt, and tracing off by default.
 */
import { context, trace } from '@opentelemetry/api';
import { expect } from 'chai';
import request from 'supertest';
import { createMockBackend, genAiTelemetry, throttleMetrics } from '../../shared/inference/index.js';
import { Metrics, startTracing, type Tracing, tracingOn } from '../../shared/observability/index.js';
import { JobSeals, QueueKeys } from '../../shared/orchestration/queued.js';
import { instrumentedObserver, traceConsumedJob, withTraceParent } from '../../shared/orchestration/tracing/index.js';
import type { PipeProgress, PipeStep, UsageSummary } from '../../shared/runtime/index.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { type FakeCollector, type ReceivedSpan, startFakeCollector } from '../helpers/otlp-collector.js';
import { pollUntil } from '../helpers/poll.js';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.js';
import { buildTestApp } from '../helpers/test-app.js';

const NO_USAGE = { inputTokens: 0, outputTokens: 0 };
const RUN_USAGE: UsageSummary = {
  total: { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: null, unpricedCalls: 0 },
  byModel: {},
  byPipe: {},
};

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

function step(number: number, parentStep: number | null, pipeCode: string): PipeStep {
  return {
    step: number,
    parentStep,
    pipeCode,
    pipeType: parentStep === null ? 'PipeSequence' : 'PipeLLM',
    outputConcept: 'native.Text',
  };
}

describe('tracing in one process (fake OTLP collector, JSON export)', () => {
  let collector: FakeCollector;
  let tracing: Tracing;

  before(async () => {
    collector = await startFakeCollector();
    tracing = await startTracing('worker', {
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
  });

  after(async () => {
    await tracing.shutdown();
    await collector.close();
  });

  async function exported(traceId: string, count: number): Promise<ReceivedSpan[]> {
    await tracing.flush();
    return pollUntil(
      async () => collector.spans.filter((span) => span.traceId === traceId),
      (spans) => spans.length >= count,
    );
  }

  it('should make a span per pipe run under its controller, marking a replayed step and a failed one', async () => {
    expect(tracing.enabled).to.equal(true);
    expect(tracingOn()).to.equal(true);
    const reports: PipeProgress[] = [];
    const metrics = new Metrics();
    const root = trace.getTracer('test').startSpan('attempt');
    const traceId = root.spanContext().traceId;
    await context.with(trace.setSpan(context.active(), root), async () => {
      const observer = instrumentedObserver({ pipeProgress: (progress) => reports.push(progress) }, metrics);
      const at = Date.now();
      observer.pipeProgress({ kind: 'started', step: step(1, null, 'main'), at });
      observer.pipeProgress({ kind: 'started', step: step(2, 1, 'first'), at: at + 1 });
      const inside = await observer.within!(2, async () => trace.getActiveSpan()?.spanContext().spanId);
      observer.pipeProgress({
        kind: 'finished',
        step: step(2, 1, 'first'),
        at: at + 2,
        durationMs: 1,
        usage: NO_USAGE,
        runUsage: RUN_USAGE,
        replayed: true,
      });
      observer.pipeProgress({ kind: 'started', step: step(3, 1, 'second'), at: at + 3 });
      observer.pipeProgress({
        kind: 'failed',
        step: step(3, 1, 'second'),
        at: at + 5,
        durationMs: 2,
        usage: { inputTokens: 4, outputTokens: 2 },
        runUsage: RUN_USAGE,
        error: { error_type: 'LlmCallError', message: 'boom' },
      });
      observer.pipeProgress({
        kind: 'failed',
        step: step(1, null, 'main'),
        at: at + 6,
        durationMs: 6,
        usage: { inputTokens: 4, outputTokens: 2 },
        runUsage: RUN_USAGE,
        error: { error_type: 'LlmCallError', message: 'boom' },
      });
      expect(inside, 'the step span is active inside within').to.be.a('string');
    });
    root.end();
    expect(reports).to.have.length(6);
    const spans = await exported(traceId, 4);
    const byName = new Map(spans.map((span) => [span.name, span]));
    const main = byName.get('pipe main')!;
    const first = byName.get('pipe first')!;
    const second = byName.get('pipe second')!;
    expect(main.parentSpanId).to.equal(root.spanContext().spanId);
    expect(first.parentSpanId).to.equal(main.spanId);
    expect(second.parentSpanId).to.equal(main.spanId);
    expect(first.attributes['mthds.pipe.replayed']).to.equal(true);
    expect(first.events.map((event) => event.name)).to.deep.equal(['checkpoint.replayed']);
    expect(second.attributes['error.type']).to.equal('LlmCallError');
    expect(second.attributes['gen_ai.usage.input_tokens']).to.equal(4);
    expect(second.statusCode).to.equal(2);
    expect(second.endNs - second.startNs, 'the times the report gave').to.be.closeTo(2_000_000, 1_000);
    // the replayed step made no work: only the two failed runs are timed
    const timed = (await metrics.registry.getSingleMetricAsString('mthds_pipe_duration_seconds'))
      .split('\n')
      .filter((line) => line.startsWith('mthds_pipe_duration_seconds_count'));
    expect(timed.map((line) => line.replace(/^.*\{/, '{')).sort()).to.deep.equal([
      '{pipe_type="PipeLLM",outcome="failed"} 1',
      '{pipe_type="PipeSequence",outcome="failed"} 1',
    ]);
  });

  it('should make each provider call a chat span with its tokens, and count it in the GenAI histograms', async () => {
    const metrics = new Metrics();
    const backend = genAiTelemetry(createMockBackend(), { metrics, captureContent: false });
    const root = trace.getTracer('test').startSpan('pipe');
    await context.with(trace.setSpan(context.active(), root), () =>
      backend.generateText({ pipeCode: 'write', userPrompt: 'secret prompt' }),
    );
    root.end();
    const spans = await exported(root.spanContext().traceId, 2);
    const chat = spans.find((span) => span.name.startsWith('chat '))!;
    expect(chat.parentSpanId).to.equal(root.spanContext().spanId);
    expect(chat.kind).to.equal(3);
    expect(chat.attributes['gen_ai.operation.name']).to.equal('chat');
    expect(chat.attributes['gen_ai.provider.name']).to.equal('mock');
    expect(chat.attributes['gen_ai.usage.input_tokens']).to.be.a('number');
    expect(chat.attributes['mthds.pipe.code']).to.equal('write');
    expect(JSON.stringify(chat.attributes)).not.to.include('secret prompt');
    const text = await metrics.registry.metrics();
    expect(text).to.match(/gen_ai_client_token_usage_count\{[^}]*gen_ai_token_type="input"[^}]*\} 1/);
    expect(text).to.match(/gen_ai_client_operation_duration_seconds_count\{[^}]*gen_ai_provider_name="mock"[^}]*\} 1/);
  });

  it('should put the prompt and the answer on the chat span only with the opt-in', async () => {
    const backend = genAiTelemetry(createMockBackend(), { metrics: new Metrics(), captureContent: true });
    const root = trace.getTracer('test').startSpan('pipe');
    await context.with(trace.setSpan(context.active(), root), () =>
      backend.generateText({ pipeCode: 'write', systemPrompt: 'be brief', userPrompt: 'opted-in prompt' }),
    );
    root.end();
    const spans = await exported(root.spanContext().traceId, 2);
    const chat = spans.find((span) => span.name.startsWith('chat '))!;
    expect(String(chat.attributes['gen_ai.input.messages'])).to.include('opted-in prompt');
    expect(chat.attributes['gen_ai.output.messages']).to.be.a('string');
  });

  it("should seal a job's trace_parent with its payload: an edited one is refused", async () => {
    const prefix = uniquePrefix();
    const connection = testRedis({ maxRetriesPerRequest: null });
    try {
      const seals = new JobSeals(connection, new QueueKeys(prefix));
      const span = trace.getTracer('test').startSpan('send runs');
      const sealed = await context.with(trace.setSpan(context.active(), span), () =>
        seals.seal(
          'runs',
          withTraceParent<{ pipeline_run_id: string; trace_parent?: string }>({ pipeline_run_id: 'r1' }),
        ),
      );
      span.end();
      const { traceId, spanId } = span.spanContext();
      expect(sealed.trace_parent).to.equal(`00-${traceId}-${spanId}-01`);
      expect(await seals.open('runs', JSON.parse(JSON.stringify(sealed)))).to.deep.include({
        trace_parent: sealed.trace_parent,
      });
      const grafted = { ...sealed, trace_parent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` };
      expect(await seals.open('runs', grafted)).to.equal(undefined);
    } finally {
      connection.disconnect();
      await deletePrefix(prefix);
    }
  });

  it('should mark a rate-limit wait on the span of the call it held back', async () => {
    const span = trace.getTracer('test').startSpan('chat held');
    context.with(trace.setSpan(context.active(), span), () => {
      const observer = throttleMetrics(new Metrics());
      observer.admitted('openai', 'gpt-4o-mini', 1500, new Set(['requests']));
      observer.timedOut('openai', 'gpt-4o-mini', 'tokens');
    });
    span.end();
    const [held] = await exported(span.spanContext().traceId, 1);
    expect(held!.events.map((event) => event.name)).to.deep.equal(['rate_limit.wait', 'rate_limit.timed_out']);
    expect(held!.events[0]!.attributes).to.deep.equal({
      'mthds.rate_limit.waited_ms': 1500,
      'mthds.rate_limit.reasons': ['requests'],
    });
  });

  it('should continue an attempt from its job traceparent and mark a retry and a stop', async () => {
    const parent = trace.getTracer('test').startSpan('send runs');
    const { traceId, spanId } = parent.spanContext();
    parent.end();
    const traceParent = `00-${traceId}-${spanId}-01`;
    const job = { queue: 'runs', jobId: 'j1', runId: 'r1', traceParent };
    const retried = traceConsumedJob({ ...job, attempt: 1 }, () => Promise.reject(new Error('transient')));
    expect((await rejection(retried)).message).to.equal('transient');
    const stop = Object.assign(new Error('RunCancelledError: cancelled by its owner'), { name: 'UnrecoverableError' });
    expect(await rejection(traceConsumedJob({ ...job, attempt: 2 }, () => Promise.reject(stop)))).to.equal(stop);
    const spans = (await exported(traceId, 3)).filter((span) => span.name === 'process runs');
    expect(spans.map((span) => span.parentSpanId)).to.deep.equal([spanId, spanId]);
    const [first, second] = spans.sort(
      (a, b) => Number(a.attributes['mthds.run.attempt']) - Number(b.attributes['mthds.run.attempt']),
    );
    expect(first!.events.map((event) => event.name)).to.deep.equal(['run.retrying']);
    expect(second!.events.map((event) => event.name)).to.deep.equal(['run.stopped']);
    expect(second!.attributes['error.type']).to.equal('RunCancelledError');
  });
});

describe('tracing in direct mode (the API runs the run itself)', () => {
  let collector: FakeCollector;
  let tracing: Tracing;

  before(async () => {
    collector = await startFakeCollector();
    tracing = await startTracing('api', { OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint });
  });

  after(async () => {
    await tracing.shutdown();
    await collector.close();
  });

  it('should hang the pipe and chat spans under the request span of a caller trace', async () => {
    const metrics = new Metrics();
    const app = buildTestApp({}, genAiTelemetry(createMockBackend(), { metrics, captureContent: false }));
    const callerTrace = '0123456789abcdef0123456789abcdef';
    const response = await request(app)
      .post('/v1/execute')
      .set('traceparent', `00-${callerTrace}-0123456789abcdef-01`)
      .send({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    await tracing.flush();
    const spans = await pollUntil(
      async () => collector.spans.filter((span) => span.traceId === callerTrace),
      (found) => found.some((span) => span.name === 'POST /v1/execute'),
    );
    const http = spans.find((span) => span.name === 'POST /v1/execute')!;
    const pipes = spans.filter((span) => span.name.startsWith('pipe '));
    expect(pipes.length).to.be.above(0);
    const entry = pipes.find((span) => span.parentSpanId === http.spanId);
    expect(entry, 'the entry pipe under the request span').to.not.equal(undefined);
    const chats = spans.filter((span) => span.name.startsWith('chat '));
    expect(chats.length).to.be.above(0);
    for (const chat of chats) expect(pipes.map((pipe) => pipe.spanId)).to.include(chat.parentSpanId);
  });
});

describe('tracing off', () => {
  it('should start nothing without an OTLP endpoint: no provider registered, no span recorded', async () => {
    const off = await startTracing('api', { OTEL_SERVICE_NAME: 'ignored' });
    expect(off.enabled).to.equal(false);
    expect(tracingOn()).to.equal(false);
    // the API's global registry holds no tracer provider, context manager or propagator
    const registry = (globalThis as Record<symbol, Record<string, unknown> | undefined>)[
      Symbol.for('opentelemetry.js.api.1')
    ];
    expect(registry?.['trace']).to.equal(undefined);
    expect(registry?.['context']).to.equal(undefined);
    expect(registry?.['propagation']).to.equal(undefined);
    const span = trace.getTracer('test').startSpan('nothing');
    expect(span.isRecording()).to.equal(false);
    span.end();
    await off.shutdown();
  });
});
