/**
 * Public surface of `shared/orchestration/storage`: the objects of runs under their `storage_scope` (results, assets,
 * generated media, offloaded job payloads and those kept for retries), the storage references that stand for moved media, those a caller
 * names in a run's inputs, and the retention sweep (spec §2.3; docs/storage.md).
 */

export { inlineStorageRefs, inputStorageRefs, isRunReadable, type RunReader } from './input-refs.js';
export { refsIn, replaceRefs } from './media-refs.js';
export { type SweepOutcome, startStorageSweep, sweepStorage } from './retention-sweep.js';
export { keepPayloadForRetry, readPayloadForRetry } from './retry-payloads.js';
export {
  inputNamesOf,
  loggedRunObjects,
  type OffloadedJob,
  RunObjects,
  type RunObjectsOptions,
} from './run-objects.js';
export { type RunSubmissionSnapshot, submissionKey } from './run-submissions.js';
