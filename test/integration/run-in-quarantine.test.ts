import { expect } from 'chai';
import { loadSettings } from '../../shared/config/index.js';
import { RunCrashedError } from '../../shared/errors/index.js';
import type { RunJob } from '../../shared/orchestration/queued.js';
import { runInQuarantine } from '../../shared/orchestration/workers/run-in-quarantine.js';
import type { PipeProgress } from '../../shared/runtime/index.js';
import { sample } from '../helpers/corpus.js';

function job(runId: string): RunJob {
  return {
    pipeline_run_id: runId,
    request_id: 'req-1',
    owner: 'single-tenant',
    sources: [{ content: sample('hello_greeting'), source: null }],
    pipe_code: null,
    inputs: { name: 'Ada' },
    output_name: null,
    output_multiplicity: null,
    dynamic_output_concept_ref: null,
    storage_scope: 'test',
    callback_urls: [],
    method_provenance: null,
    created_at: Date.now(),
  };
}

describe('runInQuarantine (forked quarantine process)', function () {
  this.timeout(120000);

  describe('when the run finishes', () => {
    it('should return the run result', async () => {
      const settings = loadSettings({ INFERENCE_PROFILE: 'mock' });
      const reports: PipeProgress[] = [];
      const result = await runInQuarantine({ settings, payload: job('quarantined-ok') }, settings.quarantine, {
        pipeProgress: (progress) => reports.push(progress),
      });
      expect(result).to.include({ pipeline_run_id: 'quarantined-ok', state: 'COMPLETED' });
      expect(reports.map((report) => [report.kind, report.step.pipeCode])).to.deep.equal([
        ['started', 'write_greeting'],
        ['finished', 'write_greeting'],
      ]);
    });
  });

  describe('when the run outlives RUN_QUARANTINE_TIMEOUT_MS', () => {
    it('should kill the process and throw RunCrashedError naming the limit', async () => {
      const settings = loadSettings({ INFERENCE_PROFILE: 'mock', MOCK_INFERENCE_LATENCY_MS: '600000' });
      const error = await runInQuarantine(
        { settings, payload: job('quarantined-slow') },
        { ...settings.quarantine, timeoutMs: 2000 },
        { pipeProgress: () => undefined },
      ).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).to.be.instanceOf(RunCrashedError);
      expect((error as RunCrashedError).message).to.equal(
        "Run 'quarantined-slow' was stopped: its worker process died during an earlier attempt, so its one retake ran in a quarantine process, and that process ran longer than 2000 ms (RUN_QUARANTINE_TIMEOUT_MS) and was killed. The run is not retried.",
      );
      expect((error as RunCrashedError).retryable).to.equal(false);
    });
  });
});
