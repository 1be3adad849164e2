/**
 * Public surface of `shared/queue`: the BullMQ queues, job payloads, Redis connections and the run registry.
 */
export { CALLBACK_QUEUE, QueueKeys, RUN_QUEUE } from './queue-keys.js';
export { openRedis, type ConnectionRole } from './redis-connection.js';
export { CALLBACK_JOB, RUN_JOB, type CallbackJob, type RunJob } from './job-payloads.js';
export { RunRegistry, type RunRecord } from './run-registry.js';
export type { RunClaim } from './run-ownership-scripts.js';
export { RunQueue, type RunQueueOptions } from './run-queue.js';
export { CallbackQueue, type CallbackQueueOptions } from './callback-queue.js';
export { openQueueBackend, type QueueBackend } from './queue-backend.js';
