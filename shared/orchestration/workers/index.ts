/**
 * Public surface of `shared/orchestration/workers`: the queue workers (run and callback processors in a pool). The
 * `worker/` entry
 * runs them in their own process; `npm start` runs them inside the API process for a single machine.
 */

export type { CallbackProcessorDeps } from './callback-processor.js';
export type { RunJobOutcome, RunProcessorDeps } from './run-processor-deps.js';
export type { Liveness } from './worker-liveness.js';
export type { WorkerPool, WorkerPoolDeps } from './worker-pool.js';
