/**
 * Public surface of `shared/orchestration/history`: the run history's writer, which drains the run store's outbox into
 * the control plane (docs/control-plane.md#the-history-outbox), and the mapping of a run record to its history row.
 */
export { type HistorySweepOptions, startHistorySweep } from './history-sweep.js';
export { RunHistoryWriter, type RunHistoryWriterDeps, type RunHistoryWriterOptions } from './run-history-writer.js';
