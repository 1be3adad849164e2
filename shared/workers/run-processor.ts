/**
 * The run job processor: validate the payload, run the bundle, record the outcome in the run registry, free the run
 * id and enqueue the completion callbacks (STYLE.md rule 23: parse, build deps, call the runtime, map the outcome).
 *
 * Retry policy (STYLE.md rule 19): a retryable failure (a transient provider error) is thrown back to BullMQ, which
 * retries with backoff; any other failure, or the last attempt, records FAILED and ends the job as unrecoverable.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import { LibraryFiles } from '../bundles/index.js';
import { toErrorReport } from '../errors/index.js';
import { failurePayload, successPayload } from '../callbacks/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import { RUN_JOB, type CallbackQueue, type RunRegistry } from '../queue/index.js';
import { executeBundleRun, withProvenance, type DocumentExtractorPort, type IdSource, type InferencePort, type TemplateRenderer } from '../runtime/index.js';

/** What the processor needs. */
export interface RunProcessorDeps {
  registry: RunRegistry;
  callbacks: CallbackQueue;
  inference: InferencePort;
  extractor: DocumentExtractorPort;
  /** Renders the runs' templates (in isolated threads, docs/isolation.md "Templates"). */
  templates: TemplateRenderer;
  ids: IdSource;
  now(): number;
  logger: Logger;
  metrics: Metrics;
  /** Base of error `type_uri`s in reports. */
  docsUrl: string;
}

/** The outcome a run job returns to BullMQ. */
export interface RunJobOutcome {
  state: 'COMPLETED';
}

/**
 * Build the processor.
 * @param deps - registry, callback queue, runtime ports, logger and metrics
 */
export function createRunProcessor(deps: RunProcessorDeps): (job: Job, token?: string, signal?: AbortSignal) => Promise<RunJobOutcome> {
  return async (job, _token, signal) => {
    const parsed = RUN_JOB.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid run job payload: ${parsed.error.message}`);
    const payload = parsed.data;
    const runId = payload.pipeline_run_id;
    const log = deps.logger.child({ request_id: payload.request_id, pipeline_run_id: runId, job_id: job.id, attempt: job.attemptsMade + 1 });
    const startedAt = deps.now();
    await deps.registry.update(runId, { state: 'RUNNING', started_at: new Date(startedAt).toISOString() });
    log.info('run:started');
    const notify = (body: string) =>
      deps.callbacks.enqueue(payload.callback_urls.map((url) => ({ pipeline_run_id: runId, request_id: payload.request_id, url, body })));
    try {
      const ran = await executeBundleRun(
        {
          sources: payload.sources,
          pipeCode: payload.pipe_code,
          inputs: payload.inputs,
          outputName: payload.output_name,
          outputMultiplicity: payload.output_multiplicity,
          dynamicOutputConceptRef: payload.dynamic_output_concept_ref,
          pipelineRunId: runId,
        },
        {
          inference: deps.inference,
          extractor: deps.extractor,
          templates: deps.templates,
          ids: deps.ids,
          now: deps.now,
          ...(signal ? { signal } : {}),
          ...(payload.library_files ? { libraryFiles: LibraryFiles.fromPayload(payload.library_files) } : {}),
        },
      );
      const result = withProvenance(ran, payload.method_provenance);
      await deps.registry.update(runId, { state: 'COMPLETED', finished_at: result.finished_at, result });
      if (payload.callback_urls.length > 0) await notify(successPayload(result));
      await deps.registry.release(runId);
      deps.metrics.runsFinished.inc({ state: 'COMPLETED' });
      deps.metrics.runDuration.observe({ state: 'COMPLETED' }, (deps.now() - payload.created_at) / 1000);
      log.info('run:completed');
      return { state: 'COMPLETED' };
    } catch (error) {
      const report = toErrorReport(error, deps.docsUrl);
      const lastAttempt = !report.retryable || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (!lastAttempt) {
        log.warn({ error_type: report.error_type }, `run:retrying after ${report.error_type}: ${report.message}`);
        throw error;
      }
      await deps.registry.update(runId, { state: 'FAILED', finished_at: new Date(deps.now()).toISOString(), error: report });
      if (payload.callback_urls.length > 0) await notify(failurePayload(runId, report));
      await deps.registry.release(runId);
      deps.metrics.runsFinished.inc({ state: 'FAILED' });
      deps.metrics.runDuration.observe({ state: 'FAILED' }, (deps.now() - payload.created_at) / 1000);
      log.warn({ error_type: report.error_type, err: error }, `run:failed: ${report.message}`);
      throw new UnrecoverableError(`${report.error_type}: ${report.message}`);
    }
  };
}
