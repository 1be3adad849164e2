/**
 * Public surface of `shared/orchestration/registry`: the run store port and the run registry in Redis — each run's
 * record, result and owner (docs/run-ownership.md).
 */

export { recordText } from './record-text.js';
export { RunRegistry } from './run-registry.js';
export {
  admissionOf,
  type DispatchLimits,
  type HistoryMark,
  type HistoryOutbox,
  type LineOffer,
  type RunClaim,
  type RunFinish,
  type RunRecord,
  type RunStore,
} from './run-store.js';
