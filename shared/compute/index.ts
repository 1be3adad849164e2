/**
 * Public surface of `shared/compute`: bounded worker-thread pools that run work on caller input off the event loop,
 * under hard time, memory and queue limits (docs/isolation.md).
 */

export { reserveHeap } from './heap-headroom.js';
export {
  ABANDON_GRACE_MS,
  type ExceededLimit,
  IsolatedPool,
  type IsolatedPoolOptions,
  type PoolOccupancy,
  type RefusalReason,
  type RunOptions,
} from './isolated-pool.js';
export { type IsolatedOperation, isolatedTaskHandler } from './isolated-task.js';
export { PooledTemplateRenderer, type TemplateRenderPoolSettings } from './pooled-template-renderer.js';
