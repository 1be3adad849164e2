import { expect } from 'chai';
import { loadSettings } from '../../shared/config/index.js';
import { RunCrashedError } from '../../shared/errors/index.js';
import type { RunJob } from '../../shared/orchestration/queued.js';
import { type QuarantineLimits, QuarantinePool } from '../../shared/orchestration/workers/run-in-quarantine.js';
import type { PipeProgress } from '../../shared/runtime/index.js';
import { sample } from '../helpers/corpus.js';
import { processTree } from '../helpers/process-tree.js';

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

describe('QuarantinePool (forked quarantine processes)', function () {
  this.timeout(120000);
  const pools: QuarantinePool[] = [];

  afterEach(() => {
    for (const pool of pools.splice(0)) pool.close();
  });

  function poolOf(limits: QuarantineLimits): QuarantinePool {
    const pool = new QuarantinePool(limits);
    pools.push(pool);
    return pool;
  }

  describe('when the run finishes', () => {
    it('should return the run result', async () => {
      const settings = loadSettings({ INFERENCE_PROFILE: 'mock' });
      const reports: PipeProgress[] = [];
      const result = await poolOf(settings.quarantine).run(
        { settings, payload: job('quarantined-ok') },
        { pipeProgress: (progress) => reports.push(progress) },
      );
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
      const error = await poolOf({ ...settings.quarantine, timeoutMs: 2000 })
        .run({ settings, payload: job('quarantined-slow') }, { pipeProgress: () => undefined })
        .then(
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

  describe('when more retakes come than RUN_QUARANTINE_CONCURRENCY', () => {
    it('should run them that many processes at a time, each process running the retakes that wait, one at a time', async () => {
      const settings = loadSettings({ INFERENCE_PROFILE: 'mock', MOCK_INFERENCE_LATENCY_MS: '200' });
      const pool = poolOf({ ...settings.quarantine, concurrency: 2 });
      const seen = new Set<number>();
      let most = 0;
      const sampler = setInterval(() => {
        const quarantines = processTree(process.pid).filter((entry) => entry.command.includes('quarantine-process'));
        for (const entry of quarantines) seen.add(entry.pid);
        most = Math.max(most, quarantines.length);
      }, 50);
      try {
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, index) =>
            pool.run({ settings, payload: job(`queued-${index}`) }, { pipeProgress: () => undefined }),
          ),
        );
        expect(results.map((result) => result.state)).to.deep.equal(Array.from({ length: 6 }, () => 'COMPLETED'));
      } finally {
        clearInterval(sampler);
      }
      expect(most, 'quarantine processes at once').to.equal(2);
      expect(seen.size, 'quarantine processes started for 6 retakes').to.equal(2);
    });
  });
});
