/**
 * The worker module of the diagnostics pool (docs/isolation.md#diagnostics-pool): the operations of
 * `thread-operations.ts`, answered across the thread boundary.
 *
 * Node 20 does not carry tsx's ESM hooks (`--import tsx`) into worker threads, and piscina's CommonJS load of this
 * module cannot `require` ESM-only dependencies of the operations (`canonicalize`). So the thread, when it runs from
 * the
 * sources, registers tsx's ESM hooks itself (the compiled `dist/` needs none), then imports the task handler and the
 * operations as ES modules — both, so that the errors the operations throw and the handler that reports them come
 * from one instance of `shared/errors`.
 */
import type { isolatedTaskHandler } from '../../shared/compute/index.js';

type TaskHandler = ReturnType<typeof isolatedTaskHandler>;

async function load(): Promise<TaskHandler> {
  if (import.meta.url.endsWith('.ts')) (await import('tsx/esm/api')).register();
  const [compute, operations] = await Promise.all([
    import('../../shared/compute/index.js'),
    import('./thread-operations.js'),
  ]);
  return compute.isolatedTaskHandler(operations.THREAD_OPERATIONS);
}

const handler = load();

/**
 * Answer one task of the pool, once the thread's modules are loaded (the load counts as waiting for a thread).
 * @param message - the task
 * @returns its answer
 */
export default async function diagnosticsTask(message: Parameters<TaskHandler>[0]): ReturnType<TaskHandler> {
  return (await handler)(message);
}
