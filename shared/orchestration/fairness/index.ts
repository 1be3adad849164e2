/**
 * Public surface of `shared/orchestration/fairness` that loads no queue: the owners' terms at the dispatch gate and
 * the run priorities (docs/fair-dispatch.md). The gate itself is in the queue mode's surface (`queued.ts`).
 */
export {
  type DispatchDefaults,
  type DispatchPolicy,
  type DispatchTerms,
  dispatchPolicy,
  type OwnTerms,
} from './dispatch-policy.js';
export { RUN_PRIORITY } from './priority.js';
