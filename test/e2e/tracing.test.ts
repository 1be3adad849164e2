/**
 * One trace per run across processes (docs/tracing.md): a fake OTLP/HTTP collector on 127.0.0.1 decodes the protobuf
 * exports of a spawned API and two spawned workers sharing one real Redis; a 3-step method whose middle step is a
 * PipeBatch of 4 items fanned out across the workers calls a fake OpenAI-compatible server 7 times and ends with a
 * completion callback. The test reads the trace back: the HTTP span, the enqueue, the run, each pipe, the child jobs,
 * 7 `chat` spans with their token counts, the callback — parent links correct, no orphan — and the log lines of the
 * run carrying its trace id.
 */
import { expect } from 'chai';
import { startCallbackReceiver } from '../helpers/callback-receiver.js';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { completion, type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { type FakeCollector, type ReceivedSpan, startFakeCollector } from '../helpers/otlp-collector.js';
import { pollUntil } from '../helpers/poll.js';
import { completionCount, type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';

/** Three steps: an LLM, a PipeBatch of an LLM over the words, and a sequence of two LLMs: 1 + 4 + 2 calls. */
const TRACED_BUNDLE = `
domain = "traced"

[pipe.main]
type = "PipeSequence"
description = "three steps"
inputs = { words = "Text[]", topic = "Text" }
output = "Text"
steps = [
  { pipe = "intro", result = "intro" },
  { pipe = "echo_all", result = "echoes" },
  { pipe = "wrap_up", result = "summary" },
]

[pipe.intro]
type = "PipeLLM"
description = "introduce the topic"
inputs = { topic = "Text" }
output = "Text"
prompt = "Introduce {{ topic }}"

[pipe.echo_all]
type = "PipeBatch"
description = "echo each word"
inputs = { words = "Text[]" }
output = "Text[]"
branch_pipe_code = "echo"
input_list_name = "words"
input_item_name = "word"

[pipe.echo]
type = "PipeLLM"
description = "echo a word"
inputs = { word = "Text" }
output = "Text"
prompt = "Echo {{ word }}"

[pipe.wrap_up]
type = "PipeSequence"
description = "two closing calls"
inputs = { intro = "Text" }
output = "Text"
steps = [
  { pipe = "draft", result = "draft" },
  { pipe = "polish", result = "polished" },
]

[pipe.draft]
type = "PipeLLM"
description = "draft"
inputs = { intro = "Text" }
output = "Text"
prompt = "Draft after {{ intro }}"

[pipe.polish]
type = "PipeLLM"
description = "polish"
inputs = { draft = "Text" }
output = "Text"
prompt = "Polish {{ draft }}"
`;

function childrenOf(spans: ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] {
  return spans.filter((span) => span.parentSpanId === parent.spanId);
}

function only(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = spans.filter((span) => span.name === name);
  expect(
    found.map((span) => span.name),
    `one span named ${name}`,
  ).to.have.length(1);
  return found[0]!;
}

describe('tracing across spawned processes (fake OTLP collector, real Redis, fake provider)', function () {
  this.timeout(120000);
  const started: ServiceProcess[] = [];
  let prefix: string;
  let fake: FakeOpenAiServer;
  let collector: FakeCollector;

  beforeEach(async () => {
    prefix = uniquePrefix();
    fake = await startFakeOpenAiServer();
    fake.respondWith(() => completion('fine words'));
    collector = await startFakeCollector();
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    await Promise.all([fake.close(), collector.close()]);
    await deletePrefix(prefix).catch(() => undefined);
  });

  it('should export one trace per run: HTTP, enqueue, run, pipes, child jobs, 7 chat spans and the callback', async () => {
    const receiver = await startCallbackReceiver([200]);
    try {
      const environment = {
        ...TEST_REDIS_ENVIRONMENT,
        QUEUE_PREFIX: prefix,
        SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: fake.baseUrl,
        RUN_FAN_OUT: 'true',
        WORKER_CHILD_CONCURRENCY: '2',
        COMPLETION_CALLBACK_SECRET: 'trace-secret',
        CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      };
      const { api, baseUrl } = await spawnApi(environment);
      started.push(api);
      const workers = [spawnService('worker', environment), spawnService('worker', environment)];
      started.push(...workers);
      for (const worker of workers) await worker.waitForLog((line) => line['msg'] === 'worker started');

      const response = await fetch(`${baseUrl}/v1/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          mthds_contents: [TRACED_BUNDLE],
          pipe_code: 'main',
          pipeline_run_id: 'traced-run',
          inputs: { topic: 'birds', words: ['one', 'two', 'three', 'four'] },
          callback_urls: [receiver.url],
        }),
      });
      expect(response.status, await response.clone().text()).to.equal(202);
      const traceParent = response.headers.get('traceparent');
      expect(traceParent).to.match(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      const traceId = traceParent!.split('-')[1]!;
      await receiver.successes(1);

      const inTrace = () => collector.spans.filter((span) => span.traceId === traceId);
      const spans = await pollUntil(
        async () => inTrace(),
        (found) => found.some((span) => span.name.startsWith('callback ')) && found.length >= 25,
        30000,
      );
      expect(collector.contentTypes[0]).to.equal('application/x-protobuf');

      // no orphan: every parent is in the trace, and the HTTP span is its only root
      const ids = new Set(spans.map((span) => span.spanId));
      const orphans = spans.filter((span) => span.parentSpanId !== '' && !ids.has(span.parentSpanId));
      expect(orphans.map((span) => span.name)).to.deep.equal([]);
      const roots = spans.filter((span) => span.parentSpanId === '');
      expect(roots.map((span) => span.name)).to.deep.equal(['POST /v1/start']);
      const http = roots[0]!;
      expect(http.service).to.equal('mthds-runner-api');
      expect(http.kind).to.equal(2);
      expect(http.attributes['http.response.status_code']).to.equal(202);

      const send = only(spans, 'send runs');
      expect(send.parentSpanId).to.equal(http.spanId);
      expect(send.kind).to.equal(4);
      expect(send.attributes['messaging.system']).to.equal('bullmq');

      const run = only(spans, 'process runs');
      expect(run.parentSpanId).to.equal(send.spanId);
      expect(run.kind).to.equal(5);
      expect(run.service).to.equal('mthds-runner-worker');
      expect(run.attributes['mthds.run.id']).to.equal('traced-run');

      const main = only(spans, 'pipe main');
      expect(main.parentSpanId).to.equal(run.spanId);
      const steps = childrenOf(spans, main).filter((span) => span.name.startsWith('pipe '));
      expect(steps.map((span) => span.name).sort()).to.deep.equal(['pipe echo_all', 'pipe intro', 'pipe wrap_up']);
      const batch = only(spans, 'pipe echo_all');
      const wrapUp = only(spans, 'pipe wrap_up');
      expect(
        childrenOf(spans, wrapUp)
          .map((span) => span.name)
          .sort(),
      ).to.deep.equal(['pipe draft', 'pipe polish']);

      // the batch's items: child jobs fanned out under the batch's span, their pipes replayed under it too
      const children = spans.filter((span) => span.name === 'process run-children');
      expect(children).to.have.length(4);
      for (const child of children) expect(child.parentSpanId).to.equal(batch.spanId);
      expect(new Set(children.map((child) => child.attributes['mthds.pipe.ref']))).to.deep.equal(
        new Set(['traced.echo']),
      );
      expect(childrenOf(spans, batch).filter((span) => span.name === 'pipe echo')).to.have.length(4);

      const chats = spans.filter((span) => span.name.startsWith('chat '));
      expect(chats).to.have.length(7);
      for (const chat of chats) {
        expect(chat.kind).to.equal(3);
        expect(chat.attributes['gen_ai.operation.name']).to.equal('chat');
        expect(chat.attributes['gen_ai.provider.name']).to.equal('openai');
        expect(chat.attributes['gen_ai.usage.input_tokens']).to.equal(11);
        expect(chat.attributes['gen_ai.usage.output_tokens']).to.equal(7);
        expect(chat.attributes['gen_ai.request.model']).to.be.a('string');
        expect(chat.attributes['gen_ai.response.model']).to.be.a('string');
        expect(chat.attributes, 'no content without the opt-in').not.to.have.property('gen_ai.input.messages');
        // the provider's HTTP request, by the undici instrumentation
        const [call] = childrenOf(spans, chat);
        expect(call?.kind).to.equal(3);
        expect(call?.attributes['http.request.method']).to.equal('POST');
        expect(String(call?.attributes['url.full'])).to.include('/chat/completions');
      }
      const parentNames = chats.map((chat) => spans.find((span) => span.spanId === chat.parentSpanId)!.name).sort();
      expect(parentNames).to.deep.equal([
        'pipe draft',
        'pipe intro',
        'pipe polish',
        'process run-children',
        'process run-children',
        'process run-children',
        'process run-children',
      ]);

      const callback = spans.find((span) => span.name.startsWith('callback '))!;
      expect(callback.parentSpanId).to.equal(run.spanId);
      expect(callback.links).to.deep.equal([{ traceId, spanId: run.spanId }]);
      expect(callback.attributes['mthds.callback.outcome']).to.equal('delivered');
      expect(callback.attributes['http.response.status_code']).to.equal(200);

      // the run's documents carry its trace id, a problem document its request's
      const status = (await (await fetch(`${baseUrl}/v1/runs/traced-run/status`)).json()) as Record<string, unknown>;
      expect(status['status']).to.equal('COMPLETED');
      expect(status['trace_id']).to.equal(traceId);
      const results = (await (await fetch(`${baseUrl}/v1/runs/traced-run/results`)).json()) as Record<string, unknown>;
      expect(results['trace_id']).to.equal(traceId);
      const missing = await fetch(`${baseUrl}/v1/runs/no-such-run/status`);
      expect(missing.status).to.equal(404);
      const problem = (await missing.json()) as Record<string, unknown>;
      expect(problem['trace_id']).to.equal(missing.headers.get('traceparent')!.split('-')[1]);

      // log correlation: the run's log lines carry its trace and the span they were written in (its record turns
      // COMPLETED a moment before its worker logs it)
      await pollUntil(
        () => Promise.resolve(completionCount(workers, 'traced-run')),
        (count) => count > 0,
        10000,
        20,
      );
      const runLogs = workers
        .flatMap((worker) => worker.logs)
        .filter((line) => line['pipeline_run_id'] === 'traced-run');
      const completed = runLogs.find((line) => line['msg'] === 'run:completed');
      expect(completed?.['trace_id']).to.equal(traceId);
      expect(completed?.['span_id']).to.equal(run.spanId);
    } finally {
      await receiver.close();
    }
  });

  it("should make the run part of a caller's trace when the request carries its traceparent", async () => {
    const environment = {
      ...TEST_REDIS_ENVIRONMENT,
      QUEUE_PREFIX: prefix,
      SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseUrl,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    const { api, baseUrl } = await spawnApi(environment);
    started.push(api);
    const worker = spawnService('worker', environment);
    started.push(worker);
    await worker.waitForLog((line) => line['msg'] === 'worker started');
    const callerTrace = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    const callerSpan = 'abad1deaabad1dea';
    const response = await fetch(`${baseUrl}/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${callerTrace}-${callerSpan}-01` },
      body: JSON.stringify({ mthds_contents: [TRACED_BUNDLE], pipe_code: 'intro', inputs: { topic: 'birds' } }),
    });
    expect(response.status).to.equal(200);
    expect(response.headers.get('traceparent')).to.match(new RegExp(`^00-${callerTrace}-[0-9a-f]{16}-01$`));
    const spans = await pollUntil(
      async () => collector.spans.filter((span) => span.traceId === callerTrace),
      (found) =>
        found.some((span) => span.name.startsWith('chat ')) && found.some((span) => span.name === 'POST /v1/execute'),
      30000,
    );
    expect(only(spans, 'POST /v1/execute').parentSpanId).to.equal(callerSpan);
    expect(only(spans, 'process runs').service).to.equal('mthds-runner-worker');
    // the access log line of the request carries the caller's trace
    const access = await api.waitForLog((line) => line['msg'] === 'http:request' && line['trace_id'] === callerTrace);
    expect(access['span_id']).to.equal(only(spans, 'POST /v1/execute').spanId);
  });

  it('should add no header and no trace fields when no OTLP endpoint is set', async () => {
    const { api, baseUrl } = await spawnApi({});
    started.push(api);
    const response = await fetch(`${baseUrl}/v1/execute`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: '00-c0ffee00c0ffee00c0ffee00c0ffee00-abad1deaabad1dea-01',
      },
      body: JSON.stringify({ mthds_contents: [TRACED_BUNDLE], pipe_code: 'intro', inputs: { topic: 'birds' } }),
    });
    expect(response.status).to.equal(200);
    expect(response.headers.get('traceparent')).to.equal(null);
    await api.waitForLog((line) => line['msg'] === 'http:request');
    expect(api.logs.filter((line) => 'trace_id' in line || 'span_id' in line)).to.deep.equal([]);
    expect(collector.spans).to.deep.equal([]);
  });
});
