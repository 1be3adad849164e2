/**
 * `/metrics` tells runs rejected by a caller error (a 4xx other than 429) from runs that failed on the server's or a
 * provider's side (docs/metrics.md), in direct mode and in queue mode (API and worker in one process here).
 */
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import type { InferencePort } from '../../shared/runtime/index.js';
import { composePipe } from '../helpers/compose-pipe.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = [
  'domain = "metrics"',
  composePipe('greet', 'Hello {{ name }}'),
  composePipe('huge_range', '{% for i in range(1000000000) %}x{% endfor %}'),
  `
[pipe.ask]
type = "PipeLLM"
description = "ask"
inputs = { name = "Text" }
output = "Text"
prompt = "Greet $name"
`,
].join('\n');

const run = (pipe: string, inputs: Record<string, unknown> = { name: 'Ada' }) => ({
  mthds_contents: [BUNDLE],
  pipe_code: pipe,
  inputs,
});

/** An inference backend whose every call fails unexpectedly (a server-side failure: catch-all 500). */
function brokenBackend(): InferencePort {
  const fail = async (): Promise<never> => {
    throw new Error('socket hang up');
  };
  return {
    name: 'broken',
    isMock: false,
    generateText: fail,
    generateObject: fail,
  } as unknown as InferencePort;
}

/** The run counters of a `/metrics` text, as `name{labels} value` lines. */
async function runCounters(app: Express): Promise<string[]> {
  const text = (await request(app).get('/metrics').expect(200)).text;
  return text
    .split('\n')
    .filter((line) => /^mthds_runs_(started|finished|rejected)_total\{/.test(line))
    .sort();
}

describe('run metrics: rejected apart from failed', () => {
  describe('in direct mode', () => {
    it('should count caller errors as rejected and server failures as FAILED', async () => {
      const app = buildTestApp({}, brokenBackend());
      await request(app).post('/v1/execute').send(run('greet')).expect(200);
      await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: ['domain = "bad"\n[pipe.x]\ntype = "PipeNope"\n'] })
        .expect(422);
      await request(app).post('/v1/execute').send(run('greet', {})).expect(422);
      await request(app).post('/v1/execute').send(run('huge_range')).expect(422);
      await request(app).post('/v1/execute').send(run('ask')).expect(500);
      expect(await runCounters(app)).to.deep.equal([
        'mthds_runs_finished_total{state="COMPLETED"} 1',
        'mthds_runs_finished_total{state="FAILED"} 1',
        'mthds_runs_rejected_total{mode="direct",error_type="Jinja2TemplateBudgetError"} 1',
        'mthds_runs_rejected_total{mode="direct",error_type="PipeInputError"} 1',
        'mthds_runs_rejected_total{mode="direct",error_type="ValidateBundleError"} 1',
        'mthds_runs_started_total{mode="direct",delivery="blocking"} 5',
      ]);
    });
  });

  describe('in queue mode', function () {
    this.timeout(30000);
    let deployment: QueueDeployment;

    before(() => {
      deployment = startQueueDeployment();
    });

    after(async () => {
      await deployment.close();
    });

    it('should count a bundle the API refuses and a run a caller error ends on the worker as rejected', async () => {
      await request(deployment.app).post('/v1/execute').send(run('greet')).expect(200);
      await request(deployment.app)
        .post('/v1/start')
        .send({ mthds_contents: ['domain = "bad"\n[pipe.x]\ntype = "PipeNope"\n'] })
        .expect(422);
      await request(deployment.app)
        .post('/v1/start')
        .send({ ...run('huge_range'), pipeline_run_id: 'metrics-budget' })
        .expect(202);
      await pollUntil(
        () =>
          request(deployment.app)
            .get('/v1/runs/metrics-budget/status')
            .then((response) => response.body),
        (body: { status?: string }) => body.status === 'FAILED',
      );
      // the worker records the run FAILED, then counts it: wait for the count
      const counters = await pollUntil(
        () => runCounters(deployment.app),
        (lines) => lines.some((line) => line.includes('Jinja2TemplateBudgetError')),
      );
      expect(counters).to.deep.equal([
        'mthds_runs_finished_total{state="COMPLETED"} 1',
        'mthds_runs_rejected_total{mode="bullmq",error_type="Jinja2TemplateBudgetError"} 1',
        'mthds_runs_rejected_total{mode="bullmq",error_type="ValidateBundleError"} 1',
        'mthds_runs_started_total{mode="bullmq",delivery="blocking"} 1',
        'mthds_runs_started_total{mode="bullmq",delivery="fire_and_forget"} 1',
      ]);
    });
  });
});
