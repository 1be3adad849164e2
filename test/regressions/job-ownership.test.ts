/**
 * Regression of issue 29, finding 2 (job data trusted for ownership): a job added or edited through BullMQ's own API —
 * as the queue dashboard with writes allowed, or a script holding a `Queue`, would do — with another owner's `owner`,
 * `storage_scope` or callback URL ran as that owner, landed in its results and sent a validly signed callback to the
 * URL it named. Now workers act only on sealed jobs of the run accepted under their id (docs/run-ownership.md "Queue
 * jobs"): every such job is refused, and nothing is run, recorded, stored or called back.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job, Queue } from 'bullmq';
import { expect } from 'chai';
import request from 'supertest';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/callback-receiver.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { JWT_ENVIRONMENT, signTestJwt } from '../helpers/jwt.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';

const SECRET = 'job-ownership-callback-secret';
const OPERATOR_KEY = 'job-ownership-operator-key-0123';
const REFUSED = /^QueueJobRefusedError: Job '[^']+' of queue '[a-z-]+' was refused: /;

describe('regression: a job added or edited through BullMQ cannot act as another owner (issue 29, finding 2)', function () {
  this.timeout(30000);
  let deployment: QueueDeployment;
  let storageDir: string;
  let victim: CallbackReceiver;
  let attacker: CallbackReceiver;
  let victimToken: string;

  before(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'mthds-job-ownership-'));
    victim = await startCallbackReceiver();
    attacker = await startCallbackReceiver();
    victimToken = await signTestJwt({ user_id: 'victim' });
    deployment = startQueueDeployment({
      secret: SECRET,
      environment: {
        ...JWT_ENVIRONMENT,
        OPERATOR_API_KEY: OPERATOR_KEY,
        CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
        STORAGE_DIR: storageDir,
      },
    });
  });

  after(async () => {
    await deployment.close();
    await Promise.all([victim.close(), attacker.close()]);
    rmSync(storageDir, { recursive: true, force: true });
  });

  const runs = (): Queue => deployment.backend.runQueue.queue;

  /** A run job payload as the API would queue one, for `owner`, with the given callback URLs. */
  function forgedRun(runId: string, owner: string, callbackUrls: string[]): Record<string, unknown> {
    return {
      pipeline_run_id: runId,
      request_id: `forged-${runId}`,
      owner,
      sources: [{ content: GREETING_BUNDLE, source: null }],
      pipe_code: null,
      inputs: { name: 'Mallory' },
      output_name: null,
      output_multiplicity: null,
      dynamic_output_concept_ref: null,
      storage_scope: owner,
      callback_urls: callbackUrls,
      method_provenance: null,
      created_at: Date.now(),
    };
  }

  async function startVictimRun(runId: string): Promise<void> {
    await request(deployment.app)
      .post('/v1/start')
      .set('authorization', `Bearer ${victimToken}`)
      .send({
        mthds_contents: [GREETING_BUNDLE],
        inputs: { name: 'Victoria' },
        pipeline_run_id: runId,
        callback_urls: [victim.url],
      })
      .expect(202);
  }

  async function victimStatus(runId: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const answer = await request(deployment.app)
      .get(`/v1/runs/${runId}/status`)
      .set('authorization', `Bearer ${victimToken}`);
    return { status: answer.status, body: answer.body as Record<string, unknown> };
  }

  /** Wait until a job failed, and answer its failure reason. */
  async function failedReason(queue: Queue, jobId: string): Promise<string> {
    const job = await pollUntil(
      () => queue.getJob(jobId),
      (found) => found?.finishedOn !== undefined,
    );
    expect(await job!.getState(), jobId).to.equal('failed');
    return job!.failedReason;
  }

  /** The names of the objects kept under a scope's leaf. */
  /** The objects kept under a scope's leaf; a write still under way (the store's `.tmp-` file) is not one yet. */
  function stored(scope: string, leaf: string): string[] {
    const directory = join(storageDir, scope, leaf);
    return existsSync(directory) ? readdirSync(directory).filter((name) => !name.startsWith('.tmp-')) : [];
  }

  async function callbackJobs(): Promise<number> {
    const counts = await deployment.backend.callbackQueue.counts();
    return Object.values(counts).reduce((total, count) => total + count, 0);
  }

  it('should refuse a run job added with another owner, its scope and a callback: nothing runs, is kept or called back', async () => {
    const before = await callbackJobs();
    await runs().add('run', forgedRun('forged-added', 'victim', [attacker.url]), { jobId: 'forged-added' });
    await runs().add(
      'run',
      { ...forgedRun('forged-resealed', 'victim', [attacker.url]), seal: 'ab'.repeat(32) },
      { jobId: 'forged-resealed' },
    );
    for (const jobId of ['forged-added', 'forged-resealed']) {
      const reason = await failedReason(runs(), jobId);
      expect(reason).to.match(REFUSED);
      expect(reason).to.include('its data carries no valid seal');
      expect(await deployment.backend.registry.get(jobId), jobId).to.equal(undefined);
      expect((await victimStatus(jobId)).status, jobId).to.equal(404);
    }
    expect(stored('victim', 'results')).to.deep.equal([]);
    expect(await callbackJobs()).to.equal(before);
    expect(attacker.received).to.deep.equal([]);
    const metrics = await request(deployment.app).get('/metrics').set('authorization', `Bearer ${OPERATOR_KEY}`);
    expect(metrics.text).to.include('mthds_queue_jobs_refused_total{queue="runs",reason="seal"} 2');
  });

  it("should refuse a waiting run whose data was edited (another callback URL, other inputs), leaving its owner's run as accepted", async () => {
    await runs().pause();
    await startVictimRun('victim-edited');
    const job = (await runs().getJob('victim-edited')) as Job;
    await job.updateData({ ...job.data, callback_urls: [attacker.url], inputs: { name: 'Mallory' } });
    await runs().resume();
    expect(await failedReason(runs(), 'victim-edited')).to.match(REFUSED);
    const status = await victimStatus('victim-edited');
    expect(status.status).to.equal(200);
    expect(status.body).to.include({ pipeline_run_id: 'victim-edited', state: 'STARTED' });
    expect(stored('victim', 'results')).to.deep.equal([]);
    expect(attacker.received).to.deep.equal([]);
    expect(victim.received).to.deep.equal([]);
  });

  it('should neither run again nor overwrite a finished run added again under its id, as it was or changed', async () => {
    await startVictimRun('victim-finished');
    await victim.successes(1);
    const record = await deployment.backend.registry.get('victim-finished');
    expect(record?.state).to.equal('COMPLETED');
    // the result object is written after the record: wait for it
    const kept = await pollUntil(
      async () => stored('victim', 'results'),
      (names) => names.length === 1,
    );
    const keptText = await pollUntil(
      async () => readFileSync(join(storageDir, 'victim', 'results', kept[0]!), 'utf8'),
      (text) => text.length > 0,
    );
    // the finishing worker delivers the callback before it releases the job: wait for the job to complete
    await pollUntil(
      async () => (await runs().getJob('victim-finished'))?.getState(),
      (state) => state === 'completed',
    );
    const job = (await runs().getJob('victim-finished')) as Job;
    const data = job.data as Record<string, unknown>;
    await job.remove();
    await runs().add('run', data, { jobId: 'victim-finished' });
    const replayed = await failedReason(runs(), 'victim-finished');
    expect(replayed).to.match(REFUSED);
    expect(replayed).to.include('its run already finished');
    await (await runs().getJob('victim-finished'))!.remove();
    await runs().add('run', { ...data, callback_urls: [attacker.url] }, { jobId: 'victim-finished' });
    expect(await failedReason(runs(), 'victim-finished')).to.include('its data carries no valid seal');
    expect(await deployment.backend.registry.get('victim-finished')).to.deep.equal(record);
    expect(readFileSync(join(storageDir, 'victim', 'results', kept[0]!), 'utf8')).to.equal(keptText);
    expect(victim.received).to.have.length(1);
    expect(attacker.received).to.deep.equal([]);
  });

  it('should refuse a copy of a waiting run under another job id, and run the accepted one once', async () => {
    await runs().pause();
    await startVictimRun('victim-copied');
    const job = (await runs().getJob('victim-copied')) as Job;
    await runs().add('run', job.data, { jobId: 'victim-copy' });
    await runs().resume();
    const reason = await failedReason(runs(), 'victim-copy');
    expect(reason).to.match(REFUSED);
    expect(reason).to.include('it is not the run accepted under its pipeline_run_id');
    await pollUntil(
      () => victimStatus('victim-copied'),
      (status) => status.body['state'] === 'COMPLETED',
    );
    // the record shows the end before the attempt has sent its callback and its job has left the active list
    await pollUntil(
      async () => (await runs().getJob('victim-copied'))!.getState(),
      (state) => state !== 'active',
    );
    expect(await (await runs().getJob('victim-copied'))!.getState()).to.equal('completed');
    expect(victim.received.filter((delivery) => delivery.body.includes('victim-copied'))).to.have.length(1);
  });

  it('should refuse a callback job or a child job added through BullMQ, signing and running nothing', async () => {
    const forgedCallback = await deployment.backend.callbackQueue.queue.add('callback', {
      pipeline_run_id: 'victim-finished',
      request_id: 'forged',
      url: attacker.url,
      body: '{"pipeline_run_id":"victim-finished","state":"COMPLETED"}',
    });
    const reason = await failedReason(deployment.backend.callbackQueue.queue, forgedCallback.id!);
    expect(reason).to.match(REFUSED);
    expect(reason).to.include("of queue 'callbacks'");
    const runJob = (await runs().getJob('victim-copied')) as Job;
    const forgedChild = await deployment.backend.childQueue.add('child', {
      pipeline_run_id: 'victim-copied',
      request_id: runJob.data.request_id,
      run_job_id: 'victim-copied',
      created_at: runJob.data.created_at,
      child: {
        pipeRef: 'greet.greet_person',
        memory: { root: [], aliases: [], absences: [], absentMain: null },
        outputName: null,
        params: { outputMultiplicity: null, dynamicOutputConceptRef: null, stack: [], stepPath: 'main/b0' },
      },
    });
    const childReason = await failedReason(deployment.backend.childQueue, forgedChild.id!);
    expect(childReason).to.match(REFUSED);
    expect(childReason).to.include("of queue 'run-children'");
    expect(attacker.received).to.deep.equal([]);
  });
});
