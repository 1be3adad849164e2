import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { LibraryFiles } from '../../../shared/bundles/index.js';
import { createMockExtractor } from '../../../shared/inference/extraction/mock-extractor.js';
import { createMockBackend, type RateTenant } from '../../../shared/inference/index.js';
import { createLogger, Metrics } from '../../../shared/observability/index.js';
import {
  directOrchestrator,
  executeSubmission,
  type LoggedRunEvent,
  localStopBroadcast,
  memoryRuns,
  RunControls,
  RunStopper,
  type RunSubmission,
  submissionOfJob,
  toRunJob,
} from '../../../shared/orchestration/index.js';
import { RUN_JOB } from '../../../shared/orchestration/queued.js';
import {
  type IdSource,
  type InferencePort,
  inThreadTemplateRenderer,
  loadRunLibrary,
} from '../../../shared/runtime/index.js';
import { runIOArtifacts } from '../../../shared/wire/index.js';
import { GREETING_BUNDLE, greetingSubmission, inThreadBundleChecker } from '../../helpers/greeting-bundle.js';
import { testRunObjects } from '../../helpers/run-objects.js';

const PROVENANCE = {
  address: 'github.com/acme/greet',
  tag: 'v1.0.0',
  commit_sha: 'a'.repeat(40),
  package_name: 'greet',
  package_version: '1.0.0',
};

function submission(overrides: Partial<RunSubmission> = {}): RunSubmission {
  return greetingSubmission({
    sources: [{ content: GREETING_BUNDLE, source: 'greet.mthds' }],
    storageScope: 'alice/project',
    callbackUrls: ['https://hooks.example.test/done'],
    ...overrides,
  });
}

function counterIds(): IdSource {
  let count = 0;
  return {
    next: () => {
      count += 1;
      return `id-${count}`;
    },
  };
}

const FIXED_NOW = Date.parse('2026-11-24T10:00:00.000Z');
/** The digest the history keeps of the greeting bundle: SHA-256 of each text's byte length, a colon and the text. */
const GREETING_DIGEST = createHash('sha256')
  .update(`${Buffer.byteLength(GREETING_BUNDLE)}:${GREETING_BUNDLE}`)
  .digest('hex');

function runtimeDeps() {
  return {
    inference: createMockBackend(),
    extractor: createMockExtractor(),
    templates: inThreadTemplateRenderer,
    ids: counterIds(),
    now: () => FIXED_NOW,
  };
}

/** The direct orchestrator's own deps: in-memory runs, a silent logger. */
function directDeps() {
  const runs = memoryRuns({
    ttlSeconds: 60,
    maxRuns: 10,
    maxBytes: 1024 * 1024,
    maxEventsPerRun: 100,
    now: () => FIXED_NOW,
  });
  const controls = new RunControls();
  const shared = {
    docsUrl: 'https://docs.example.test',
    logger: createLogger('silent', 'test'),
    metrics: new Metrics(),
    objects: testRunObjects(),
  };
  const stopper = new RunStopper({
    ...shared,
    store: runs.store,
    events: runs.events,
    now: () => FIXED_NOW,
    broadcast: localStopBroadcast(controls),
  });
  return {
    ...runtimeDeps(),
    ...shared,
    runs: runs.store,
    events: runs.events,
    bundles: inThreadBundleChecker(),
    controls,
    stopper,
  };
}

async function eventsOf(deps: ReturnType<typeof directDeps>, runId: string): Promise<LoggedRunEvent[]> {
  const logged: LoggedRunEvent[] = [];
  const followed = deps.events.follow(runId, { after: null, wait: false, signal: new AbortController().signal });
  for await (const event of followed) logged.push(event);
  return logged;
}

describe('the run submission (shared/orchestration/submission.ts)', () => {
  describe('when it goes through the job payload', () => {
    it('should write the payload field by field, valid under RUN_JOB', () => {
      const job = toRunJob(submission(), FIXED_NOW);
      expect(job).to.deep.equal({
        pipeline_run_id: 'run-1',
        request_id: 'req-1',
        owner: 'alice',
        sources: [{ content: GREETING_BUNDLE, source: 'greet.mthds' }],
        pipe_code: null,
        inputs: { name: 'Ada' },
        output_name: null,
        output_multiplicity: null,
        dynamic_output_concept_ref: null,
        storage_scope: 'alice/project',
        callback_urls: ['https://hooks.example.test/done'],
        method_provenance: null,
        created_at: FIXED_NOW,
        history: { source_digest: GREETING_DIGEST },
      });
      expect(RUN_JOB.parse(job)).to.deep.equal(job);
    });

    it('should come back as the same submission, library files and provenance included', () => {
      const files = new LibraryFiles(new Map([['docs/guide.txt', Buffer.from('hello')]]));
      const original = submission({
        libraryFiles: files,
        methodProvenance: PROVENANCE,
        outputMultiplicity: 3,
        pipeCode: 'greet_person',
      });
      const back = submissionOfJob(RUN_JOB.parse(JSON.parse(JSON.stringify(toRunJob(original, FIXED_NOW)))));
      const { libraryFiles, ...rest } = back;
      const { libraryFiles: _files, ...expected } = original;
      expect(rest).to.deep.equal(expected);
      expect(libraryFiles?.toPayload()).to.deep.equal(files.toPayload());
    });

    it("should carry the run's organization and its own share of the rate limits, and only when it has one", () => {
      const tenant = { key: 'org_acme', share: 0.25 };
      const job = toRunJob(submission({ rateTenant: tenant }), FIXED_NOW);
      expect(job.rate_tenant).to.deep.equal(tenant);
      const back = submissionOfJob(RUN_JOB.parse(JSON.parse(JSON.stringify(job))));
      expect(back.rateTenant).to.deep.equal(tenant);
      const atDefault = submissionOfJob(RUN_JOB.parse(toRunJob(submission({ rateTenant: { key: 'org_b' } }), 0)));
      expect(atDefault.rateTenant).to.deep.equal({ key: 'org_b' });
      expect(RUN_JOB.safeParse({ ...job, rate_tenant: { key: 'org_acme', share: 0 } }).success).to.equal(false);
      expect(RUN_JOB.safeParse({ ...job, rate_tenant: { key: 'org_acme', share: 1.5 } }).success).to.equal(false);
    });

    it('should refuse a payload without an owner', () => {
      const { owner: _owner, ...job } = toRunJob(submission(), FIXED_NOW);
      expect(RUN_JOB.safeParse(job).success).to.equal(false);
    });
  });

  describe('when it is executed', () => {
    it('should render the run result with the fetch provenance of a method_ref run', async () => {
      const result = await executeSubmission(submission({ methodProvenance: PROVENANCE }), runtimeDeps());
      expect(result).to.include({
        pipeline_run_id: 'run-1',
        state: 'COMPLETED',
        pipeline_state: 'COMPLETED',
        main_stuff_name: 'main_stuff',
      });
      expect(result.created_at).to.equal('2026-11-24T10:00:00.000Z');
      expect(result.finished_at).to.equal('2026-11-24T10:00:00.000Z');
      expect(result.method_provenance).to.deep.equal(PROVENANCE);
      expect(result.pipe_structures).to.deep.equal({
        greet_person: {
          inputs: { name: { concept_code: 'native.Text', multiplicity: 'single' } },
          output: { concept_code: 'native.Text', multiplicity: 'single' },
        },
      });
    });

    it("should make the run's inference calls for its organization, and a run of none for no organization", async () => {
      const tenants: (RateTenant | undefined)[] = [];
      const mock = createMockBackend();
      const recording: InferencePort = {
        ...mock,
        generateText: (request) => {
          tenants.push(request.tenant);
          return mock.generateText(request);
        },
      };
      const deps = { ...runtimeDeps(), inference: recording };
      await executeSubmission(submission({ rateTenant: { key: 'org_acme' } }), deps);
      await executeSubmission(submission(), deps);
      expect(tenants).to.deep.equal([{ key: 'org_acme' }, undefined]);
    });

    it('should leave method_provenance out of an inline run', async () => {
      const result = await executeSubmission(submission(), runtimeDeps());
      expect(result).to.not.have.property('method_provenance');
    });
  });

  describe('when the direct orchestrator takes it', () => {
    it('should run it through the bundle checker and count it in the metrics', async () => {
      const deps = directDeps();
      const metrics = deps.metrics;
      const orchestrator = directOrchestrator(deps);
      expect(orchestrator.start).to.equal(undefined);
      const result = await orchestrator.execute(submission(), new AbortController().signal);
      expect(result.state).to.equal('COMPLETED');
      expect(await metrics.registry.getSingleMetricAsString('mthds_runs_started_total')).to.contain(
        'mthds_runs_started_total{mode="direct",delivery="blocking"} 1',
      );
      expect(await metrics.registry.getSingleMetricAsString('mthds_runs_finished_total')).to.contain(
        'mthds_runs_finished_total{state="COMPLETED"} 1',
      );
    });

    it('should keep a record of the run, COMPLETED with its result, and its events in order', async () => {
      const deps = directDeps();
      const result = await directOrchestrator(deps).execute(submission(), new AbortController().signal);
      expect(await deps.runs.getOwned('run-1', 'bob')).to.equal(undefined);
      expect(await deps.runs.getOwned('run-1', 'alice')).to.deep.equal({
        pipeline_run_id: 'run-1',
        workflow_id: null,
        state: 'COMPLETED',
        pipe_code: null,
        owner: 'alice',
        storage_scope: 'alice/project',
        request_id: 'req-1',
        created_at: '2026-11-24T10:00:00.000Z',
        started_at: '2026-11-24T10:00:00.000Z',
        finished_at: '2026-11-24T10:00:00.000Z',
        attempts: 1,
        source_digest: GREETING_DIGEST,
        result,
        io_artifacts: runIOArtifacts(loadRunLibrary(submission().sources)),
      });
      const kept = await deps.runs.getOwned('run-1', 'alice');
      expect(Object.keys(kept?.io_artifacts?.pipe_io_contracts ?? {})).to.deep.equal(['greet.greet_person']);
      expect(kept?.io_artifacts?.pipe_io_artifacts_error).to.equal(null);
      const logged = await eventsOf(deps, 'run-1');
      expect(logged.map((entry) => entry.id)).to.deep.equal([
        `${FIXED_NOW}-0`,
        `${FIXED_NOW}-1`,
        `${FIXED_NOW}-2`,
        `${FIXED_NOW}-3`,
      ]);
      const at = '2026-11-24T10:00:00.000Z';
      const pipe = {
        pipeline_run_id: 'run-1',
        at,
        step: 1,
        parent_step: null,
        pipe_code: 'greet_person',
        pipe_type: 'PipeLLM',
        output_concept: 'native.Text',
      };
      const usage = result.pipe_output.tokens_usages[0]!.nb_tokens_by_category;
      const figures = {
        calls: 1,
        input_tokens: usage['input'],
        output_tokens: usage['output'],
        cost_usd: null,
        unpriced_calls: 1,
      };
      const report = { total: figures, by_model: { mock: figures }, by_pipe: { greet_person: figures } };
      expect(result.usage).to.deep.equal(report);
      expect(logged.map((entry) => entry.event)).to.deep.equal([
        { type: 'run:started', pipeline_run_id: 'run-1', at, pipe_code: null, attempt: 1 },
        { type: 'pipe:started', ...pipe },
        {
          type: 'pipe:finished',
          ...pipe,
          duration_ms: 0,
          token_usage: { input_tokens: usage['input'], output_tokens: usage['output'] },
          run_usage: figures,
        },
        {
          type: 'run:finished',
          pipeline_run_id: 'run-1',
          at,
          status: 'COMPLETED',
          finished_pipes: 1,
          error: null,
          usage: report,
        },
      ]);
      expect(await deps.events.progress('run-1')).to.deep.equal({
        current_pipe: null,
        finished_pipes: 1,
        usage: report,
      });
    });

    it('should record a run its pipe refuses FAILED, with the error report naming the pipe', async () => {
      const deps = directDeps();
      const unregistered = `${GREETING_BUNDLE}
[pipe.file_greeting]
type = "PipeFunc"
description = "File the greeting"
inputs = { name = "Text" }
output = "Text"
function_name = "file_greeting"
`;
      const failing = submission({
        sources: [{ content: unregistered, source: 'greet.mthds' }],
        pipeCode: 'file_greeting',
      });
      let failure: unknown;
      await directOrchestrator(deps)
        .execute(failing, new AbortController().signal)
        .catch((error: unknown) => {
          failure = error;
        });
      expect(failure).to.have.property('error_type', 'PipeFeatureNotSupportedError');
      const record = await deps.runs.get('run-1');
      expect(record?.state).to.equal('FAILED');
      expect(record?.error).to.include({
        error_type: 'PipeFeatureNotSupportedError',
        error_domain: 'config',
        pipe_code: 'file_greeting',
      });
      const logged = await eventsOf(deps, 'run-1');
      expect(logged.map((entry) => entry.event.type)).to.deep.equal([
        'run:started',
        'pipe:started',
        'pipe:failed',
        'run:finished',
      ]);
      expect(logged[3]!.event).to.deep.include({ status: 'FAILED', finished_pipes: 0 });
      expect((logged[3]!.event as { error: unknown }).error).to.deep.equal({ ...record?.error, retryable: false });
    });

    it('should count a refused bundle as rejected, not FAILED, and throw its ValidateBundleError, without a record', async () => {
      const deps = directDeps();
      const metrics = deps.metrics;
      const orchestrator = directOrchestrator(deps);
      const broken = submission({
        sources: [{ content: 'domain = "greet"\n[pipe.x]\ntype = "PipeNope"\n', source: null }],
      });
      let failure: unknown;
      try {
        await orchestrator.execute(broken, new AbortController().signal);
      } catch (error) {
        failure = error;
      }
      expect(failure).to.have.property('error_type', 'ValidateBundleError');
      expect(await metrics.registry.getSingleMetricAsString('mthds_runs_rejected_total')).to.contain(
        'mthds_runs_rejected_total{mode="direct",error_type="ValidateBundleError"} 1',
      );
      expect(await metrics.registry.getSingleMetricAsString('mthds_runs_finished_total')).to.not.contain(
        'state="FAILED"',
      );
      expect(await deps.runs.get('run-1')).to.equal(undefined);
    });
  });
});
