/**
 * The crash context: the work (requests, runs) a process has in progress, so the fatal-error policy can name it when
 * an exception escapes (`fatal-errors.ts`, docs/run-failures.md#uncaught-errors).
 *
 * It is a registry of what is in flight, not an `AsyncLocalStorage`: on Node 20 an async context, once any is used,
 * hooks every promise the process makes, a tax of about a tenth of a worker's CPU per run (bench/hot-path.md). A
 * process that dies takes all its work in progress with it, so the policy names all of it.
 */

/** Log fields naming one piece of work, e.g. `{ request_id }` or `{ request_id, pipeline_run_id, job_id }`. */
export type CrashContext = Readonly<Record<string, string | null>>;

/** Most pieces of work a fatal log line names (the count says how many were in flight). */
const NAMED_AT_MOST = 50;

const inProgress = new Set<CrashContext>();

/**
 * Register a piece of work as in progress until the returned release is called (calling it again does nothing).
 * @param context - log fields naming the work
 * @returns the release
 */
export function workStarted(context: CrashContext): () => void {
  const entry = { ...context };
  inProgress.add(entry);
  return () => {
    inProgress.delete(entry);
  };
}

/**
 * Run asynchronous work registered as in progress until it settles.
 * @param context - log fields naming the work
 * @param work - the work
 * @returns what `work` resolves to
 * @throws what `work` throws
 */
export async function withCrashContext<T>(context: CrashContext, work: () => Promise<T>): Promise<T> {
  const release = workStarted(context);
  try {
    return await work();
  } finally {
    release();
  }
}

/**
 * The work in progress, as log fields: the fields of the one piece of work in flight, or `in_flight` (at most
 * {@link NAMED_AT_MOST} of them) with `in_flight_count` when there are several; empty when there is none.
 */
export function crashFields(): Record<string, unknown> {
  if (inProgress.size === 0) return {};
  if (inProgress.size === 1) return { ...[...inProgress][0] };
  return { in_flight: [...inProgress].slice(0, NAMED_AT_MOST), in_flight_count: inProgress.size };
}
