/**
 * The `direct` orchestrator: runs in the API process. Blocking only, so `/v1/start` answers 400
 * `StartRequiresAsyncOrchestration` on it (spec §4.4).
 */
import type { Metrics } from '../observability/index.js';
import type { DocumentExtractorPort, IdSource, InferencePort, TemplateRenderer } from '../runtime/index.js';
import type { Orchestrator, RunBundleChecker } from './orchestrator.js';
import { countRejection } from './run-rejections.js';
import { executeSubmission } from './submission.js';

/**
 * Build the direct orchestrator. The bundles are loaded and statically validated by the bundle checker (the API's
 * diagnostics threads, off the event loop); the run itself goes on in this thread, its templates rendered in isolated
 * threads (docs/isolation.md).
 * @param deps - the runtime's ports, the metrics that count runs (`mthds_runs_*`, mode `direct`: every run taken is
 *   started, then finished or, for a caller error such as an invalid bundle or input, rejected), the bundle checker
 */
export function directOrchestrator(deps: {
  inference: InferencePort;
  extractor: DocumentExtractorPort;
  templates: TemplateRenderer;
  ids: IdSource;
  now(): number;
  metrics: Metrics;
  bundles: RunBundleChecker;
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
        const library = await deps.bundles.load(submission, signal);
        return executeSubmission(
          submission,
          {
            inference: deps.inference,
            extractor: deps.extractor,
            templates: deps.templates,
            ids: deps.ids,
            now: deps.now,
            signal,
          },
          library,
        );
      };
      const result = await run().catch((error: unknown) => {
        if (!countRejection(deps.metrics, 'direct', error)) finished('FAILED');
        throw error;
      });
      finished('COMPLETED');
      return result;
    },
  };
}
