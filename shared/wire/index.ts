/**
 * Public surface of `shared/wire`: the runtime's domain values rendered in the shapes the API and the callbacks send
 * (spec §2.4–2.5; API-CONTRACT.md §3.5, §3.7) — run results, validation reports with their I/O contracts, form
 * descriptors. It imports the language core and the runtime, never orchestration or HTTP.
 */

export type { FormNode, PipeInputFormDescriptor, PipeOutputFormDescriptor } from './form-descriptors.js';
export { completedRunResult, type PipeStructure, type RunResult, type RunState, withProvenance } from './run-result.js';
export { type InvalidReport, type PipeIOContract, type ValidReport, validationReport } from './validation-report.js';
