/**
 * Public surface of `shared/orchestration/registry`: the run registry in Redis — each run's record, result and owner
 * (docs/run-ownership.md).
 */

export type { RunClaim } from './run-ownership-scripts.js';
export { type RunRecord, RunRegistry } from './run-registry.js';
