/**
 * Public surface of `shared/wire`: the runtime's domain values rendered in the shapes the API and the callbacks send
 * (spec §2.4–2.5; API-CONTRACT.md §3.5, §3.7) — run results, validation reports with their I/O contracts, form
 * descriptors. It imports the language core and the runtime, never orchestration or HTTP.
 */
export { completedRunResult, withProvenance, type PipeStructure, type RunResult, type RunState } from './run-result.js';
export { validationReport, type InvalidReport, type PipeIOContract, type ValidReport } from './validation-report.js';
export { type FormNode, type PipeInputFormDescriptor, type PipeOutputFormDescriptor } from './form-descriptors.js';
