/**
 * The `direct` orchestrator: runs in the API process. Blocking only, so `/v1/start` answers 400
 * `StartRequiresAsyncOrchestration` on it (spec §4.4).
 */
import { executeBundleRun, withProvenance, type DocumentExtractorPort, type IdSource, type InferencePort, type TemplateRenderer } from '../../shared/runtime/index.js';
import type { Metrics } from '../../shared/observability/index.js';
import type { Orchestrator } from './orchestrator.js';

/**
 * Build the direct orchestrator.
 * @param deps - the runtime's ports (the template renderer runs renders in isolated threads, docs/isolation.md), and the
 *   metrics that count runs (`mthds_runs_*`, mode `direct`)
 */
export function directOrchestrator(deps: {
  inference: InferencePort;
  extractor: DocumentExtractorPort;
  templates: TemplateRenderer;
  ids: IdSource;
  now(): number;
  metrics: Metrics;
}): Orchestrator {
  return {
    mode: 'direct',
    async execute(submission, signal) {
      const started = deps.now();
      deps.metrics.runsStarted.inc({ mode: 'direct', delivery: 'blocking' });
      const finished = (state: 'COMPLETED' | 'FAILED') => {
        deps.metrics.runsFinished.inc({ state });
        deps.metrics.runDuration.observe({ state }, (deps.now() - started) / 1000);
      };
      const result = await executeBundleRun(
        {
          sources: submission.sources,
          pipeCode: submission.pipeCode,
          inputs: submission.inputs,
          outputName: submission.outputName,
          outputMultiplicity: submission.outputMultiplicity,
          dynamicOutputConceptRef: submission.dynamicOutputConceptRef,
          pipelineRunId: submission.pipelineRunId,
        },
        {
          inference: deps.inference,
          extractor: deps.extractor,
          templates: deps.templates,
          ids: deps.ids,
          now: deps.now,
          signal,
          ...(submission.libraryFiles ? { libraryFiles: submission.libraryFiles } : {}),
        },
      ).catch((error: unknown) => {
        finished('FAILED');
        throw error;
      });
      finished('COMPLETED');
      return withProvenance(result, submission.methodProvenance);
    },
  };
}
