/**
 * A run's BullMQ job is named by its `pipeline_run_id`, so the queue dashboard (Bull Board, `/admin/queues`) lists and
 * finds runs by the id callers know; an id reused by its owner after the run finished runs again.
 */
import { expect } from 'chai';
import request from 'supertest';
import { sample } from '../helpers/corpus.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';

const hello = { mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } };

describe('run job ids (Bull Board lists runs by pipeline_run_id)', function () {
  this.timeout(30000);
  let deployment: QueueDeployment;

  beforeEach(() => {
    deployment = startQueueDeployment();
  });

  afterEach(async () => {
    await deployment.close();
  });

  async function startAndFinish(runId: string): Promise<{ workflow_id: string; created_at: string }> {
    const ack = await request(deployment.app)
      .post('/v1/start')
      .send({ ...hello, pipeline_run_id: runId })
      .expect(202);
    await pollUntil(
      () =>
        request(deployment.app)
          .get(`/v1/runs/${encodeURIComponent(runId)}/status`)
          .then((response) => response.body),
      (body: { status?: string; created_at?: string }) =>
        body.status === 'COMPLETED' && body.created_at === ack.body.created_at,
    );
    return ack.body as { workflow_id: string; created_at: string };
  }

  it('should show a run in the dashboard under its pipeline_run_id', async () => {
    const ack = await startAndFinish('board-run-7');
    expect(ack.workflow_id).to.equal('board-run-7');
    const job = await request(deployment.app).get('/admin/queues/api/queues/runs/board-run-7').expect(200);
    expect(job.body).to.deep.include({ status: 'completed' });
    expect(job.body.job).to.include({ id: 'board-run-7', name: 'run' });
    expect(job.body.job.data.pipeline_run_id).to.equal('board-run-7');
    const listing = await request(deployment.app)
      .get('/admin/queues/api/queues?activeQueue=runs&status=completed&page=1&jobsPerPage=10')
      .expect(200);
    const runs = (listing.body.queues as { name: string; jobs: { id: string }[] }[]).find(
      (queue) => queue.name === 'runs',
    );
    expect(runs?.jobs.map((entry) => entry.id)).to.deep.equal(['board-run-7']);
  });

  it('should run again a finished run whose id its owner reuses', async () => {
    const first = await startAndFinish('reused-run');
    const second = await startAndFinish('reused-run');
    expect(second.created_at > first.created_at).to.equal(true);
    const job = await request(deployment.app).get('/admin/queues/api/queues/runs/reused-run').expect(200);
    expect(job.body.job.data.created_at).to.equal(Date.parse(second.created_at));
  });

  it('should encode the ids BullMQ cannot take as they are', async () => {
    expect((await startAndFinish('42')).workflow_id).to.equal('~NDI');
    expect((await startAndFinish('team:run')).workflow_id).to.equal('~dGVhbTpydW4');
    const job = await request(deployment.app).get('/admin/queues/api/queues/runs/~NDI').expect(200);
    expect(job.body.job.data.pipeline_run_id).to.equal('42');
  });

  it('should look for an earlier job only when the caller named the run id', async () => {
    await deployment.close();
    deployment = startQueueDeployment({ workers: false });
    const { queue } = deployment.backend.runQueue;
    const lookups: string[] = [];
    const getJob = queue.getJob.bind(queue);
    queue.getJob = (jobId: string) => {
      lookups.push(jobId);
      return getJob(jobId);
    };
    const generated = await request(deployment.app).post('/v1/start').send(hello).expect(202);
    await request(deployment.app)
      .post('/v1/start')
      .send({ ...hello, pipeline_run_id: 'named-run' })
      .expect(202);
    expect(lookups).to.deep.equal(['named-run']);
    expect(await getJob(generated.body.pipeline_run_id)).to.not.equal(undefined);
  });

  it('should refuse to replace the job of a run no worker has finished with 409', async () => {
    await deployment.close();
    deployment = startQueueDeployment({ workers: false });
    await request(deployment.app)
      .post('/v1/start')
      .send({ ...hello, pipeline_run_id: 'never-finished' })
      .expect(202);
    const waiting = await deployment.backend.runQueue.queue.getJob('never-finished');
    const { seal: _seal, ...payload } = waiting!.data;
    const refusal = await deployment.backend.runQueue.enqueue(payload).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).to.include({
      error_type: 'PipelineManagerAlreadyExistsError',
      message:
        "A run with pipeline_run_id 'never-finished' is still being closed by its worker; retry in a moment or use another id.",
    });
    expect(await waiting!.getState()).to.equal('prioritized');
  });

  it('should disarm the enqueue deadline once Redis took the job (no timer left behind per run)', async () => {
    await deployment.close();
    deployment = startQueueDeployment({ workers: false });
    // the deadline of one enqueue (ENQUEUE_TIMEOUT_MS of run-queue.ts); timers of that length still armed after the
    // acknowledgement would each fire later and build a QueueUnavailableError nobody reads
    const deadlineMs = 5000;
    const armed = new Set<unknown>();
    const { setTimeout: set, clearTimeout: clear } = globalThis;
    globalThis.setTimeout = ((...timerArgs: Parameters<typeof setTimeout>) => {
      const timer = set(...timerArgs);
      if (timerArgs[1] === deadlineMs) armed.add(timer);
      return timer;
    }) as typeof setTimeout;
    globalThis.clearTimeout = ((timer?: NodeJS.Timeout) => {
      armed.delete(timer);
      clear(timer);
    }) as typeof clearTimeout;
    try {
      await request(deployment.app).post('/v1/start').send(hello).expect(202);
      await request(deployment.app)
        .post('/v1/start')
        .send({ ...hello, pipeline_run_id: 'named-run' })
        .expect(202);
    } finally {
      globalThis.setTimeout = set;
      globalThis.clearTimeout = clear;
    }
    expect(armed.size).to.equal(0);
  });
});
