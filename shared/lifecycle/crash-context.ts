/**
 * The crash context: who (which request, which run) the code running now works for, kept in an `AsyncLocalStorage`
 * so the fatal-error policy can name it when an exception escapes (`fatal-errors.ts`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Log fields naming the work in progress, e.g. `{ request_id, pipeline_run_id, job_id }`. */
export type CrashContext = Readonly<Record<string, string | null>>;

const storage = new AsyncLocalStorage<CrashContext>();

/**
 * Run `work` with a crash context (nested contexts extend the outer one).
 * @param context - log fields naming the work
 * @param work - the code to run
 * @returns what `work` returns
 */
export function withCrashContext<T>(context: CrashContext, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, work);
}

/** The crash context of the code running now, or undefined outside any. */
export function currentCrashContext(): CrashContext | undefined {
  return storage.getStore();
}
