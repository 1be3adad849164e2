/**
 * Public surface of `retry/` that every mode may load (docs/checkpoints.md#retrying-a-run): the retrier port and what a
 * run that ends unsuccessfully keeps for its retries. The queue mode's retrier is built by the queue backend.
 */
export { keepRetryBasis, type RetryBasisDeps } from './retry-basis.js';
export type { RetryAcknowledgement, RunRetrier } from './run-retrier.js';
