/**
 * Fan-out across spawned workers (docs/fan-out.md): an API and two worker processes share one real Redis under a
 * unique prefix; a 40-item PipeBatch over a PipeLLM calls a fake OpenAI-compatible server on 127.0.0.1 that answers
 * each prompt with its echo after 200 ms. The items are child jobs both workers take; the outputs come back in input
 * order. Speed is measured by `bench/fan-out.ts`, never asserted here.
 */
import { expect } from 'chai';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { CONTROLLERS_BUNDLE } from '../helpers/controllers-bundle.js';
import {
  type ChatRequestBody,
  completion,
  type FakeOpenAiServer,
  startFakeOpenAiServer,
} from '../helpers/fake-openai-server.js';
import { type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';

/** Items of the batch, and how long the fake takes to answer each. */
const ITEMS = 40;
const LATENCY_MS = 200;

/** The text of the last user message of a chat request (a string, or text parts). */
function userText(body: ChatRequestBody): string {
  const content: unknown = body.messages?.filter((message) => message.role === 'user').at(-1)?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((part: { text?: string }) => (typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}

function childrenDoneBy(worker: ServiceProcess): number {
  return worker.logs.filter((line) => line['msg'] === 'child:completed').length;
}

describe('fan-out across spawned workers (real Redis, fake provider)', function () {
  this.timeout(120000);
  const started: ServiceProcess[] = [];
  let prefix: string;
  let fake: FakeOpenAiServer;

  beforeEach(async () => {
    prefix = uniquePrefix();
    fake = await startFakeOpenAiServer();
    fake.respondWith((request) => ({ ...completion(`echo ${userText(request.body)}`), delayMs: LATENCY_MS }));
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    await fake.close();
    await deletePrefix(prefix).catch(() => undefined);
  });

  it('should run the items of a 40-item batch on both workers and answer their outputs in input order', async () => {
    const environment = {
      ...TEST_REDIS_ENVIRONMENT,
      QUEUE_PREFIX: prefix,
      SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: fake.baseUrl,
      RUN_FAN_OUT: 'true',
      BATCH_MAX_PARALLEL: '20',
      WORKER_CHILD_CONCURRENCY: '10',
    };
    const { api, baseUrl } = await spawnApi(environment);
    started.push(api);
    const workers = [spawnService('worker', environment), spawnService('worker', environment)];
    started.push(...workers);
    for (const worker of workers) await worker.waitForLog((line) => line['msg'] === 'worker started');
    const words = Array.from({ length: ITEMS }, (_, index) => `word-${index}`);
    const response = await fetch(`${baseUrl}/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mthds_contents: [CONTROLLERS_BUNDLE], pipe_code: 'batch_echo', inputs: { words } }),
      signal: AbortSignal.timeout(90000),
    });
    const body = (await response.json()) as {
      pipe_output: { working_memory: { root: Record<string, { content: unknown }> }; tokens_usages: unknown[] };
    };
    expect(response.status, JSON.stringify(body)).to.equal(200);
    expect(body.pipe_output.working_memory.root['main_stuff']!.content).to.deep.equal({
      items: words.map((word) => ({ text: `echo ${word}` })),
    });
    expect(body.pipe_output.tokens_usages).to.have.length(ITEMS);
    expect(fake.requests).to.have.length(ITEMS);
    const [first, second] = workers.map(childrenDoneBy);
    expect(first! + second!).to.equal(ITEMS);
    expect(first, 'items taken by the first worker').to.be.above(0);
    expect(second, 'items taken by the second worker').to.be.above(0);
  });
});
