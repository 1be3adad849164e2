/**
 * Quarantine: run one run job in a dedicated child process with a V8 heap limit and a wall-clock bound, so a run that
 * exhausts memory, crashes or never ends kills only that process, never the worker (docs/run-failures.md). Used for
 * the one retake of a run whose worker process died.
 *
 * A child process, not a worker thread: measured on Node 20, a worker thread with `resourceLimits` whose run builds a
 * large string overshoots its limit inside a garbage collection and aborts the whole process
 * (`FatalProcessOutOfMemory` from the thread's minor GC), which is exactly what quarantine must prevent. A process
 * boundary contains every kind of death.
 */
import { fork } from 'node:child_process';
import type { Settings } from '../../config/index.js';
import { errorFromReport, RunCrashedError } from '../../errors/index.js';
import { loaderOptions, siblingModule } from '../../lifecycle/index.js';
import type { RunObserver } from '../../runtime/index.js';
import type { RunResult } from '../../wire/index.js';
import type { QuarantineMessage, QuarantineTask } from './quarantine-process.js';

/** Limits of a quarantine process: V8 heap in MiB, wall clock in ms. */
export type QuarantineLimits = Settings['quarantine'];

const ENTRY = siblingModule('./quarantine-process', import.meta.url);
/** How much of the child's stderr is kept to explain its death, in characters. */
const STDERR_TAIL_CHARS = 4096;

function crashed(runId: string, what: string): RunCrashedError {
  return new RunCrashedError(
    `Run '${runId}' was stopped: its worker process died during an earlier attempt, so its one retake ran in a quarantine process, and ${what}. The run is not retried.`,
  );
}

function describeExit(
  code: number | null,
  signal: NodeJS.Signals | null,
  stderr: string,
  limits: QuarantineLimits,
): string {
  if (/heap out of memory|Reached heap limit/i.test(stderr)) {
    return `that process ran out of memory (heap limit ${limits.heapMib} MiB, RUN_QUARANTINE_HEAP_MIB)`;
  }
  return `that process died before answering (${signal ? `signal ${signal}` : `exit code ${code}`})`;
}

/**
 * Run a job in a fresh quarantine process.
 * @param task - the settings the process builds its runtime from, and the validated job payload
 * @param limits - the process's heap limit (MiB) and wall-clock bound (ms)
 * @param observer - receives the run's pipe reports, as the process sends them
 * @param signal - aborts the attempt (the process is killed and the promise rejects with the signal's reason)
 * @returns the run result, as the in-process run would return it
 * @throws RunCrashedError when the process runs out of memory, dies without an answer or outlives
 *   `limits.timeoutMs`; the run's own error (rebuilt from its report) when the run fails normally
 */
export function runInQuarantine(
  task: QuarantineTask,
  limits: QuarantineLimits,
  observer: RunObserver,
  signal?: AbortSignal,
): Promise<RunResult> {
  const runId = task.payload.pipeline_run_id;
  return new Promise<RunResult>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const child = fork(ENTRY, {
      execArgv: [...loaderOptions(ENTRY), `--max-old-space-size=${limits.heapMib}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      outcome();
    };
    const timer = setTimeout(
      () =>
        settle(() =>
          reject(
            crashed(
              runId,
              `that process ran longer than ${limits.timeoutMs} ms (RUN_QUARANTINE_TIMEOUT_MS) and was killed`,
            ),
          ),
        ),
      limits.timeoutMs,
    );
    const onAbort = () => settle(() => reject(signal?.reason));
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('message', (message: QuarantineMessage) => {
      if (message.kind === 'progress') {
        if (!settled) observer.pipeProgress(message.progress);
        return;
      }
      settle(() => (message.kind === 'completed' ? resolve(message.result) : reject(errorFromReport(message.report))));
    });
    child.on('error', (error) => settle(() => reject(crashed(runId, `that process failed: ${error.message}`))));
    child.on('close', (code, exitSignal) =>
      settle(() => reject(crashed(runId, describeExit(code, exitSignal, stderr, limits)))),
    );
    child.send(task);
  });
}
