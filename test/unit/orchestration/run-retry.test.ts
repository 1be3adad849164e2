/**
 * The job of a retry (shared/orchestration/retry/run-retrier.ts; docs/checkpoints.md#retrying-a-run): the original's
 * submission under the retry's id, request and time, linked to the original and replaying from it; and the states a
 * retry starts from.
 */
import { expect } from 'chai';
import { RunNotRetryableError } from '../../../shared/errors/index.js';
import { RUN_JOB, type RunJob } from '../../../shared/orchestration/queued.js';
import type { RunRecord } from '../../../shared/orchestration/registry/index.js';
import { checkRetryable, retryJob } from '../../../shared/orchestration/retry/run-retrier.js';

const ORIGINAL: RunJob = {
  pipeline_run_id: 'run-1',
  request_id: 'req-1',
  owner: 'org_acme',
  sources: [{ content: 'domain = "d"', source: 'b.mthds' }],
  pipe_code: 'four',
  inputs: { topic: { url: 'mthds-storage:org_acme/assets/ab.pdf' } },
  output_name: 'drafts',
  output_multiplicity: 2,
  dynamic_output_concept_ref: null,
  storage_scope: 'org_acme',
  callback_urls: ['https://hooks.example.test/done'],
  library_file_objects: { 'data/table.csv': 'cd.csv' },
  method_provenance: null,
  max_cost_usd: 0.5,
  created_at: 1_760_000_000_000,
  history: { method_id: 'mt_1', method_version: 3, source_digest: 'ef', keep_submission: true },
};

const IDENTITY = { pipelineRunId: 'run-2', requestId: 'req-2', createdAt: 1_760_000_600_000 };

describe('the job of a retry', () => {
  it('should carry the original’s submission under its own id, request and time, linked to and replaying from it', () => {
    const job = retryJob(ORIGINAL, { ...IDENTITY, keepSubmission: true });
    expect(job).to.deep.equal({
      ...ORIGINAL,
      pipeline_run_id: 'run-2',
      request_id: 'req-2',
      created_at: 1_760_000_600_000,
      history: { method_id: 'mt_1', method_version: 3, source_digest: 'ef', retry_of: 'run-1', keep_submission: true },
      replay_from: { pipeline_run_id: 'run-1', request_id: 'req-1', created_at: 1_760_000_000_000 },
    });
    expect(RUN_JOB.safeParse(job).success).to.equal(true);
  });

  it('should keep the submission only where the deployment keeps them, and replay a retry of a retry from the retry', () => {
    const retry = retryJob(ORIGINAL, { ...IDENTITY, keepSubmission: false });
    expect(retry.history).to.deep.equal({
      method_id: 'mt_1',
      method_version: 3,
      source_digest: 'ef',
      retry_of: 'run-1',
    });
    const again = retryJob(retry, { pipelineRunId: 'run-3', requestId: 'req-3', createdAt: 1, keepSubmission: false });
    expect(again.history?.retry_of).to.equal('run-2');
    expect(again.replay_from).to.deep.equal({
      pipeline_run_id: 'run-2',
      request_id: 'req-2',
      created_at: 1_760_000_600_000,
    });
  });
});

describe('the states a retry starts from', () => {
  const record = (state: RunRecord['state']): RunRecord => ({
    pipeline_run_id: 'run-1',
    workflow_id: 'run-1',
    state,
    pipe_code: null,
    owner: 'org_acme',
    storage_scope: 'org_acme',
    request_id: 'req-1',
    created_at: '2025-10-09T08:53:20.000Z',
    started_at: null,
    finished_at: null,
  });

  it('should be FAILED, CANCELLED and TIMED_OUT only', () => {
    for (const state of ['FAILED', 'CANCELLED', 'TIMED_OUT'] as const)
      expect(() => checkRetryable(record(state))).not.to.throw();
    for (const state of ['STARTED', 'RUNNING', 'COMPLETED', 'ERROR'] as const) {
      const refused = (() => {
        try {
          checkRetryable(record(state));
          return undefined;
        } catch (error) {
          return error;
        }
      })();
      expect(refused, state).to.be.instanceOf(RunNotRetryableError);
      expect((refused as RunNotRetryableError).wireExtensions()).to.deep.equal({ run_state: state });
    }
  });
});
