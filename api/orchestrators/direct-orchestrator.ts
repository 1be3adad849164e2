/**
 * The `direct` orchestrator: runs in the API process. Blocking only, so `/v1/start` answers 400
 * `StartRequiresAsyncOrchestration` on it (spec §4.4).
 */
import { executeBundleRun, withProvenance, type DocumentExtractorPort, type IdSource, type InferencePort, type TemplateRenderer } from '../../shared/runtime/index.js';
import type { Metrics } from '../../shared/observability/index.js';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import { checkedRunLibrary } from '../offload/run-library.js';
import type { Orchestrator } from './orchestrator.js';

/**
 * Build the direct orchestrator. The bundles are loaded and statically validated in the diagnostics pool, off the
 * event loop; the run itself goes on in this thread, its templates rendered in isolated threads (docs/isolation.md).
 * @param deps - the runtime's ports, the metrics that count runs (`mthds_runs_*`, mode `direct`), the diagnostics pool
 */
export function directOrchestrator(deps: {
  inference: InferencePort;
  extractor: DocumentExtractorPort;
  templates: TemplateRenderer;
  ids: IdSource;
  now(): number;
  metrics: Metrics;
  diagnostics: DiagnosticsPool;
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
      const run = async () => {
        const library = await checkedRunLibrary(deps.diagnostics, submission, signal);
        return executeBundleRun(
          {
            library,
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
        );
      };
      const result = await run().catch((error: unknown) => {
        finished('FAILED');
        throw error;
      });
      finished('COMPLETED');
      return withProvenance(result, submission.methodProvenance);
    },
  };
}
