/**
 * Public surface of `shared/orchestration/queue`: the BullMQ queues, their keys and job payloads, Redis connections
 * and the detection of a queue outage.
 */

export { CallbackQueue, type CallbackQueueOptions } from './callback-queue.js';
export { CHILD_JOB, type ChildJob, type ChildJobPayload, childJobOf, childJobPayload } from './child-job-payload.js';
export { type ChildResult, type ChildResultValue, childResultValue } from './child-job-result.js';
export { ChildQueue, type ChildQueueOptions } from './child-queue.js';
export { childJobId, type FanOutRun } from './fan-out-run.js';
export {
  CALLBACK_JOB,
  type CallbackJob,
  type OffloadedRunJob,
  QUEUED_RUN_JOB,
  type QueuedRunJob,
  RUN_JOB,
  type RunHistoryFacts,
  type RunJob,
} from './job-payloads.js';
export { JobSeals, type Sealed } from './job-seals.js';
export { partitionSettings, servedPartitions } from './partitions.js';
export { CALLBACK_QUEUE, CHILD_QUEUE, partitionPrefix, QueueKeys, RUN_QUEUE, runPartition } from './queue-keys.js';
export { type ConnectionRole, openRedis, RedisConnections } from './redis-connection.js';
export { RunQueue, type RunQueueOptions, runIdOfJob, runJobId } from './run-queue.js';
export { RunQueueJobs } from './run-queue-jobs.js';
