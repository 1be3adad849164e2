/**
 * Fan-out across workers (docs/fan-out.md) with the real Redis and in-process worker pools: a queued run's PipeBatch
 * items and PipeParallel branches run as child jobs, and the run answers exactly what the in-process path answers
 * (working memory, usage, graph, failures); at most `BATCH_MAX_PARALLEL` children are in flight; a retaken parent
 * re-attaches to the children its earlier attempt finished instead of running them again.
 */
import { once } from 'node:events';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import {
  type ChildJob,
  ChildQueue,
  childJobId,
  type FanOutRun,
  JobSeals,
  openRedis,
  QueueKeys,
} from '../../shared/orchestration/queue/index.js';
import type { FanOutReport } from '../../shared/runtime/index.js';
import { batchWrapChild, CONTROLLERS_BUNDLE } from '../helpers/controllers-bundle.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { TEST_REDIS_TARGET } from '../helpers/redis.js';
import { readEventStream } from '../helpers/sse-client.js';
import { buildTestApp } from '../helpers/test-app.js';

/** A bundle whose batch fails on the items its condition does not know. */
const CHECKS_BUNDLE = `
domain = "fan"

[concept.Ticket]
description = "A ticket"
[concept.Ticket.structure]
title = { type = "text", description = "Title", required = true }

[pipe.check_all]
type = "PipeBatch"
description = "check every ticket"
inputs = { tickets = "Ticket[]" }
output = "Text[]"
branch_pipe_code = "check"
input_list_name = "tickets"
input_item_name = "ticket"

[pipe.check]
type = "PipeCondition"
description = "known titles only"
inputs = { ticket = "Ticket" }
output = "Text"
expression_template = "{{ ticket.title }}"
outcomes = { known = "calm" }
default_outcome = "fail"

[pipe.calm]
type = "PipeCompose"
description = "calm"
inputs = { ticket = "Ticket" }
output = "Text"
template = "calm: {{ ticket.title }}"
`;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function execute(app: Express, body: Record<string, unknown>): Promise<Answer> {
  const response = await request(app).post('/v1/execute').send(body);
  return { status: response.status, body: response.body as Record<string, unknown> };
}

/**
 * What must not differ between the paths: the answer with its run id, stuff codes, timestamps and graph node timings
 * replaced by placeholders (stuff codes numbered in order of first appearance, so shared stuffs stay shared).
 */
function comparable(answer: Answer): unknown {
  const codes = new Map<string, string>();
  const visit = (value: unknown, key: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => visit(item, key));
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(
        Object.entries(value)
          .filter(([name]) => !['graph_spec', 'pipeline_run_id', 'instance', 'request_id'].includes(name))
          .map(([name, item]) => [name, visit(item, name)]),
      );
    if (typeof value !== 'string') return value;
    if (['stuff_code', 'digest', 'source_stuff_digest', 'target_stuff_digest'].includes(key)) {
      const base = value.replace(/-branch-\d+$/, '');
      if (!codes.has(base)) codes.set(base, `stuff-${codes.size}`);
      return value.replace(base, codes.get(base)!);
    }
    if (/_at$/.test(key)) return 'time';
    return value;
  };
  return visit(answer.body, '');
}

/**
 * The graph's nodes (pipe code and status) and edges (kind and label), each sorted: their start order differs between
 * the paths.
 */
function graphShape(answer: Answer): { nodes: string[]; edges: string[] } {
  const output = answer.body['pipe_output'] as {
    graph_spec: { nodes: { pipe_code: string; status: string }[]; edges: { kind: string; label: string | null }[] };
  };
  return {
    nodes: output.graph_spec.nodes.map((node) => `${node.pipe_code} ${node.status}`).sort(),
    edges: output.graph_spec.edges.map((edge) => `${edge.kind} ${edge.label}`).sort(),
  };
}

describe('fan-out of batch items and parallel branches (real Redis, in-process workers)', function () {
  this.timeout(60000);
  const direct = buildTestApp();
  let deployment: QueueDeployment;
  let childJobs: number;
  let inFlight: number;
  let mostInFlight: number;

  /** Start the deployment, counting the child jobs its worker takes and the most in flight at once. */
  function deploy(environment: Record<string, string> = {}): void {
    deployment = startQueueDeployment({
      environment: { RUN_FAN_OUT: 'true', BATCH_MAX_PARALLEL: '3', MOCK_INFERENCE_LATENCY_MS: '20', ...environment },
    });
    childJobs = 0;
    inFlight = 0;
    mostInFlight = 0;
    const children = deployment.pool!.childWorker;
    // counted when taken: the worker's own 'completed' event may come after the result reached the parent
    children.on('active', () => {
      childJobs += 1;
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
    });
    children.on('completed', () => {
      inFlight -= 1;
    });
  }

  beforeEach(() => deploy());

  afterEach(() => deployment.close());

  /** The same run on the direct path and fanned out; both answers. */
  async function both(body: Record<string, unknown>): Promise<{ inProcess: Answer; fannedOut: Answer }> {
    const inProcess = await execute(direct, body);
    const fannedOut = await execute(deployment.app, body);
    return { inProcess, fannedOut };
  }

  for (const [pipe, inputs, children] of [
    ['batch_wrap', { words: ['a', 'b', 'c', 'd', 'e'] }, 5],
    ['wrap_all', { words: ['x', 'y'] }, 2],
    ['batch_nested', { words: ['a', 'b'], suffixes: ['1', '2'] }, 2],
    ['par_each', { word: 'hi', wrapped: '[pre]' }, 2],
    ['par_combined', { word: 'hi', wrapped: '[pre]' }, 2],
    ['batch_echo', { words: ['one', 'two', 'three', 'four'] }, 4],
  ] as const) {
    it(`should answer ${pipe} (${children} children) exactly as the in-process path does`, async () => {
      const body = { mthds_contents: [CONTROLLERS_BUNDLE], pipe_code: pipe, inputs };
      const { inProcess, fannedOut } = await both(body);
      if (inProcess.status !== 200) expect.fail(`in-process: ${JSON.stringify(inProcess.body)}`);
      expect(fannedOut.status, JSON.stringify(fannedOut.body)).to.equal(200);
      expect(comparable(fannedOut)).to.deep.equal(comparable(inProcess));
      expect(graphShape(fannedOut)).to.deep.equal(graphShape(inProcess));
      expect(childJobs).to.equal(children);
    });
  }

  it('should gather a batch in input order with at most BATCH_MAX_PARALLEL children in flight', async () => {
    const words = Array.from({ length: 12 }, (_, index) => `w${index}`);
    const { status, body } = await execute(deployment.app, {
      mthds_contents: [CONTROLLERS_BUNDLE],
      pipe_code: 'batch_wrap',
      inputs: { words },
    });
    expect(status).to.equal(200);
    const root = (body['pipe_output'] as { working_memory: { root: Record<string, { content: unknown }> } })
      .working_memory.root;
    expect(root['main_stuff']!.content).to.deep.equal({ items: words.map((word) => ({ text: `[${word}]` })) });
    expect(childJobs).to.equal(12);
    expect(mostInFlight).to.be.within(1, 3);
  });

  it('should fail the run with the error of the failing child, as the in-process path does', async () => {
    const body = {
      mthds_contents: [CHECKS_BUNDLE],
      pipe_code: 'check_all',
      inputs: { tickets: { concept: 'fan.Ticket', content: [{ title: 'known' }, { title: 'odd' }] } },
    };
    const { inProcess, fannedOut } = await both(body);
    expect(inProcess.status).to.equal(500);
    expect(fannedOut.status).to.equal(inProcess.status);
    expect(fannedOut.body).to.deep.include({
      error_type: 'PipeConditionError',
      detail: "PipeCondition 'check' failed with outcome: fail. Evaluated expression: 'odd' (outcomes: known).",
    });
    expect(comparable(fannedOut)).to.deep.equal(comparable(inProcess));
  });

  it('should keep the children of a run with a budget in its worker (one ledger of costs)', async () => {
    const { status, body } = await execute(deployment.app, {
      mthds_contents: [CONTROLLERS_BUNDLE],
      pipe_code: 'batch_wrap',
      inputs: { words: ['a', 'b'] },
      max_cost_usd: 1,
    });
    expect(status, JSON.stringify(body)).to.equal(200);
    expect(childJobs).to.equal(0);
  });

  it('should count the children in the run usage and report their pipes as run events', async () => {
    const { status, body } = await execute(deployment.app, {
      mthds_contents: [CONTROLLERS_BUNDLE],
      pipe_code: 'batch_echo',
      inputs: { words: ['one', 'two', 'three'] },
    });
    expect(status).to.equal(200);
    const usages = (body['pipe_output'] as { tokens_usages: { pipe_code: string }[] }).tokens_usages;
    expect(usages.map((usage) => usage.pipe_code)).to.deep.equal(['echo', 'echo', 'echo']);
    const server = deployment.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const stream = await readEventStream(server, `/v1/runs/${String(body['pipeline_run_id'])}/events`).finally(() =>
      server.close(),
    );
    const finished = stream.frames
      .filter((frame) => frame.event === 'pipe:finished')
      .map((frame) => frame.data as { pipe_code: string; step: number; parent_step: number | null });
    expect(finished.map((event) => event.pipe_code).sort()).to.deep.equal(['batch_echo', 'echo', 'echo', 'echo']);
    const batch = finished.find((event) => event.pipe_code === 'batch_echo')!;
    for (const event of finished.filter((event) => event.pipe_code === 'echo'))
      expect(event.parent_step).to.equal(batch.step);
    expect(new Set(finished.map((event) => event.step)).size).to.equal(4);
  });

  it('should re-attach a retaken parent to the children its earlier attempt finished, not run them again', async () => {
    const words = ['p', 'q', 'r'];
    const { status } = await execute(deployment.app, {
      mthds_contents: [CONTROLLERS_BUNDLE],
      pipe_code: 'batch_wrap',
      inputs: { words },
    });
    expect(status).to.equal(200);
    expect(childJobs).to.equal(3);
    const keys = new QueueKeys(deployment.settings.queue.prefix);
    const connections = [openRedis(TEST_REDIS_TARGET, 'worker'), openRedis(TEST_REDIS_TARGET, 'worker')];
    const children = new ChildQueue({
      connection: connections[0]!,
      eventsConnection: connections[1]!,
      keys,
      seals: new JobSeals(connections[0]!, keys),
    });
    try {
      const [finished] = await children.queue.getJobs(['completed']);
      const earlier = finished!.data as ChildJob;
      const run: FanOutRun = {
        pipelineRunId: earlier.pipeline_run_id,
        requestId: earlier.request_id,
        runJobId: earlier.run_job_id,
        createdAt: earlier.created_at,
        retake: true,
      };
      const stepPaths = words.map((_, index) => `main/b${index}`);
      for (const stepPath of stepPaths) expect(await children.queue.getJob(childJobId(run, stepPath))).to.exist;
      const retaken = stepPaths.map(batchWrapChild);
      const reports: FanOutReport[] = [];
      const outcomes = await children
        .fanOutFor(run)
        .run(retaken.length, (index) => retaken[index]!, { cap: 3, onEnded: (_index, report) => reports.push(report) });
      expect(
        outcomes.map((outcome) => (outcome.kind === 'stuff' ? outcome.stuff.content : outcome.kind)),
      ).to.deep.equal(words.map((word) => ({ kind: 'item', item: { text: `[${word}]` } })));
      expect(reports).to.have.length(3);
      expect(childJobs, 'no child ran again').to.equal(3);
    } finally {
      await children.close();
      for (const connection of connections) connection.disconnect();
    }
  });

  it('should run again, on a retake, the child that failed, and reuse the one that finished', async () => {
    await deployment.close();
    deploy({ BATCH_MAX_PARALLEL: '1' });
    const { status } = await execute(deployment.app, {
      mthds_contents: [CHECKS_BUNDLE],
      pipe_code: 'check_all',
      inputs: { tickets: { concept: 'fan.Ticket', content: [{ title: 'known' }, { title: 'odd' }] } },
    });
    expect(status).to.equal(500);
    const ran = childJobs;
    const keys = new QueueKeys(deployment.settings.queue.prefix);
    const connections = [openRedis(TEST_REDIS_TARGET, 'worker'), openRedis(TEST_REDIS_TARGET, 'worker')];
    const children = new ChildQueue({
      connection: connections[0]!,
      eventsConnection: connections[1]!,
      keys,
      seals: new JobSeals(connections[0]!, keys),
    });
    try {
      const earlier = (await children.queue.getJobs(['completed'])).map((job) => job.data as ChildJob);
      const byPath = new Map(earlier.map((job) => [job.child.params.stepPath, job]));
      const first = byPath.get('main/b0')!;
      const run: FanOutRun = {
        pipelineRunId: first.pipeline_run_id,
        requestId: first.request_id,
        runJobId: first.run_job_id,
        createdAt: first.created_at,
        retake: true,
      };
      const retaken = ['main/b0', 'main/b1'].map((path) => byPath.get(path)!.child);
      const failure = await children
        .fanOutFor(run)
        .run(retaken.length, (index) => retaken[index]!, { cap: 1, onEnded: () => undefined })
        .then(
          () => undefined,
          (error: unknown) => error as { error_type?: string },
        );
      expect(failure).to.include({ error_type: 'PipeConditionError' });
      expect(childJobs - ran, 'only the failed child ran again').to.equal(1);
    } finally {
      await children.close();
      for (const connection of connections) connection.disconnect();
    }
  });

  it('should fail a fan-out whose children cannot be added as a retryable QueueUnavailableError', async () => {
    const keys = new QueueKeys(deployment.settings.queue.prefix);
    const [producer, events, sealing] = [1, 2, 3].map(() => openRedis(TEST_REDIS_TARGET, 'worker'));
    const children = new ChildQueue({
      connection: producer!,
      eventsConnection: events!,
      keys,
      seals: new JobSeals(sealing!, keys),
    });
    try {
      await children.queue.waitUntilReady();
      // the producer's connection is gone, as a failover's moved slot or a dropped node leaves it
      producer!.disconnect();
      const run: FanOutRun = {
        pipelineRunId: 'fan-outage',
        requestId: 'fan-outage-request',
        runJobId: 'fan-outage-job',
        createdAt: Date.now(),
        retake: false,
      };
      const child = batchWrapChild('main/b0');
      const failure = await children
        .fanOutFor(run)
        .run(2, () => child, { cap: 2, onEnded: () => undefined })
        .then(
          () => undefined,
          (error: unknown) => error as { error_type?: string; retryable?: boolean; message?: string },
        );
      expect(failure).to.include({ error_type: 'QueueUnavailableError', retryable: true });
      expect(failure?.message).to.equal('The child queue (Redis) is unreachable: Connection is closed..');
      expect(childJobs, 'no child ran').to.equal(0);
    } finally {
      await children.close();
      for (const connection of [events, sealing]) connection!.disconnect();
    }
  });
});
