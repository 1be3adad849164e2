/**
 * Public surface of `shared/orchestration/queue`: the BullMQ queues, their keys and job payloads, Redis connections
 * and the detection of a queue outage.
 */

export { CallbackQueue, type CallbackQueueOptions } from './callback-queue.js';
export { ChildQueue, type ChildQueueOptions, childJobId, type FanOutRun } from './child-queue.js';
export {
  CALLBACK_JOB,
  type CallbackJob,
  CHILD_JOB,
  type ChildJob,
  type ChildJobPayload,
  type ChildResult,
  type ChildResultValue,
  childJobOf,
  childJobPayload,
  childResultValue,
  type OffloadedRunJob,
  QUEUED_RUN_JOB,
  type QueuedRunJob,
  RUN_JOB,
  type RunJob,
} from './job-payloads.js';
export { JobSeals, type Sealed } from './job-seals.js';
export { CALLBACK_QUEUE, CHILD_QUEUE, QueueKeys, RUN_QUEUE } from './queue-keys.js';
export { type ConnectionRole, openRedis, RedisConnections } from './redis-connection.js';
export { RunQueue, type RunQueueOptions, runJobId } from './run-queue.js';
