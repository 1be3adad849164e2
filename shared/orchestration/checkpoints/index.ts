/**
 * Public surface of `checkpoints/`: the step checkpoints of queued runs in Redis (docs/checkpoints.md).
 */
export { RunCheckpoints, type RunCheckpointsOptions } from './run-checkpoints.js';
