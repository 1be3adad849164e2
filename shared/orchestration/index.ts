/**
 * Public surface of `shared/orchestration`: where runs go once the API accepted them (spec §1.1, §4.3–4.4, §6).
 *
 * - the orchestrator port and its two backends: `direct` (in the API process) and `bullmq` (queued for workers);
 * - the run submission and its only mappings, into a job payload and into the runtime's run;
 * - `queued.ts` (imported apart, so `direct` mode never loads BullMQ or ioredis): `queue/`, the BullMQ queues, job
 *   payloads and the one place that opens Redis connections; the API's queue backend; `workers/`, the worker pool, the
 *   run and callback processors, the quarantine of poison runs;
 * - `registry/`: the run store port and the run registry (state, results, ownership) in Redis;
 * - `events/`: the runs' live progress — event types, the run event log port on Redis Streams, the progress tracker;
 * - `memory/`: run records and events held in this process, for a deployment without Redis;
 * - `callbacks/`: signed completion callbacks;
 * - `control/`: stopping runs before their end — a cancel, a deadline — and the holds of the runs in flight in a
 *   process (docs/cancellation.md);
 * - `storage/`: the objects of runs under their `storage_scope` (results, assets, generated media, payloads) and their
 *   retention sweep;
 * - `retry/`: retries of runs that ended unsuccessfully, replaying their finished steps (the retrier port, and what
 *   such a run keeps for them);
 * - the boot of a process (API or worker): settings, logger, inference backend, lifecycle.
 *
 * It imports the runtime and its adapters, never `api/`.
 */

export * from './callbacks/index.js';
export * from './catalog/index.js';
export * from './control/index.js';
export { type DirectOrchestratorDeps, directOrchestrator } from './direct-orchestrator.js';
export * from './events/index.js';
export * from './fairness/index.js';
export * from './history/index.js';
export { type MemoryRunsOptions, memoryRuns } from './memory/index.js';
export type { Orchestrator, RunBundleChecker, RunCheckRequest, StartAcknowledgement } from './orchestrator.js';
export {
  type BootedProcess,
  bootProcess,
  configurationOrExit,
  loadProcessSettings,
  redisUrlForLogs,
  refuseToStart,
  type StartupFacts,
} from './process-boot.js';
export type { QueueBackend } from './queue-backend.js';
export * from './registry/index.js';
export * from './retry/index.js';
export * from './storage/index.js';
export { executeSubmission, type MethodLink, type RunSubmission, submissionOfJob, toRunJob } from './submission.js';
export type { WorkerPool, WorkerPoolDeps } from './workers/index.js';
