/**
 * Public surface of `checkpoints/`: the step checkpoints of queued runs in Redis (docs/checkpoints.md).
 */
export { type RunCheckpointStore, RunCheckpoints, type RunCheckpointsOptions } from './run-checkpoints.js';
