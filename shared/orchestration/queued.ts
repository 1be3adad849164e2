/**
 * Public surface of the queue mode of `shared/orchestration` (spec §1.1 `bullmq`, §4.3–4.4): the BullMQ queues and
 * job payloads, the one place that opens Redis connections, the API's queue backend and the worker pool with its
 * processors.
 *
 * Kept apart from the mode-agnostic barrel (`index.ts`) so that a process in `direct` mode never loads BullMQ or
 * ioredis: the API imports this module only once its deployment runs queued (docs/architecture.md#startup); the
 * worker entry always does.
 */

export { type BullmqOrchestratorDeps, bullmqOrchestrator } from './bullmq-orchestrator.js';
export { RedisStopChannel, type RedisStopChannelOptions } from './control/redis-stop-channel.js';
export { RunGate, type RunGateOptions } from './fairness/run-gate.js';
// the API's queue backend and a process's workers: one partition's, or each partition's behind one
// (docs/redis.md#sharded-run-queues)
export { openPartitionedBackend as openQueueBackend } from './partitioned-backend.js';
export * from './queue/index.js';
export type { QueueBackend } from './queue-backend.js';
export * from './workers/index.js';
export { startPartitionedWorkers as startWorkerPool } from './workers/partitioned-pool.js';
