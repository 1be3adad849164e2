/**
 * Public surface of `shared/orchestration/queue`: the BullMQ queues, their keys and job payloads, Redis connections
 * and the detection of a queue outage.
 */
export { CALLBACK_QUEUE, QueueKeys, RUN_QUEUE } from './queue-keys.js';
export { openRedis, RedisConnections, type ConnectionRole } from './redis-connection.js';
export { CALLBACK_JOB, RUN_JOB, type CallbackJob, type RunJob } from './job-payloads.js';
export { RunQueue, type RunQueueOptions } from './run-queue.js';
export { CallbackQueue, type CallbackQueueOptions } from './callback-queue.js';
