/**
 * Public surface of `shared/wire`: the runtime's domain values rendered in the shapes the API and the callbacks send
 * (spec §2.4–2.5; docs/api.md) — run results with their working memory and execution graph, validation
 * reports with their I/O contracts, the build routes' answers, form descriptors. It imports the language core and the
 * runtime, never orchestration or HTTP; neither of those imports it (docs/architecture.md).
 */

export {
  type BuildInputsValidReport,
  type BuildOutputValidReport,
  type BuildRunnerValidReport,
  buildInputsValidReport,
  buildOutputValidReport,
  buildRunnerValidReport,
  codegenValidReport,
  dryRunInvalidReport,
  resolveValidReport,
} from './build-reports.js';
export type { FormNode, PipeInputFormDescriptor, PipeOutputFormDescriptor } from './form-descriptors.js';
export { completedRunResult, type PipeStructure, type RunResult, type RunState, withProvenance } from './run-result.js';
export { type InvalidReport, type PipeIOContract, type ValidReport, validationReport } from './validation-report.js';
