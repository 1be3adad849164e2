/**
 * Quarantine: run a run job in a child process with a V8 heap limit and a wall-clock bound, so a run that exhausts
 * memory, crashes or never ends kills only that process, never the worker (docs/run-failures.md). Used for the one
 * retake of a run whose worker process died.
 *
 * A worker runs at most `RUN_QUARANTINE_CONCURRENCY` quarantine processes at once, each running one retake at a time;
 * further retakes wait their turn (their job stays locked by the worker, as any run in flight). So a mass retake — a
 * hundred runs of a dead worker taken at once — holds a bounded memory (each process is bounded by its heap limit), not
 * a hundred processes. A process whose retake answered (completed, or failed with the run's own error) and left its
 * heap below half the limit runs the next retake waiting, which saves the runtime's start-up for each; a process that
 * died, was killed, or grew its heap is never reused, and a process idle for {@link IDLE_EXIT_MS} exits.
 *
 * A child process, not a worker thread: measured on Node 20, a worker thread with `resourceLimits` whose run builds a
 * large string overshoots its limit inside a garbage collection and aborts the whole process
 * (`FatalProcessOutOfMemory` from the thread's minor GC), which is exactly what quarantine must prevent. A process
 * boundary contains every kind of death.
 */
import { type ChildProcess, fork } from 'node:child_process';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Settings } from '../../config/index.js';
import { errorFromReport, RunCrashedError } from '../../errors/index.js';
import { loaderOptions, siblingModule } from '../../lifecycle/index.js';
import { swallowedErrors } from '../../observability/index.js';
import type { RunObserver } from '../../runtime/index.js';
import type { RunResult } from '../../wire/index.js';
import type { QuarantineMessage, QuarantineTask } from './quarantine-process.js';

/** Limits of quarantine: V8 heap of a process in MiB, wall clock of a retake in ms, processes at once per worker. */
export type QuarantineLimits = Settings['quarantine'];

const ENTRY = siblingModule('./quarantine-process', import.meta.url);
/** How much of a process's stderr is kept to explain its death, in characters. */
const STDERR_TAIL_CHARS = 4096;
/** How long a quarantine process waits, idle, for another retake before it is stopped, in ms. */
const IDLE_EXIT_MS = 10000;
/** Share of the heap limit a process may hold after a retake and still run the next one. */
const REUSE_HEAP_SHARE = 0.5;

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

/** One quarantine process and what is known of it. */
interface QuarantineProcess {
  readonly child: ChildProcess;
  /** The end of its stderr since its current retake began. */
  stderr: string;
  /** Stops it once it has been idle {@link IDLE_EXIT_MS}. */
  idleTimer?: NodeJS.Timeout;
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Whether a process keeps its parent's event loop alive: only while it runs a retake. */
function hold(child: ChildProcess, held: boolean): void {
  if (held) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

/** The quarantine processes of one worker process: at most `limits.concurrency` at once. */
export class QuarantinePool {
  private readonly limit: LimitFunction;
  private readonly idle: QuarantineProcess[] = [];
  private closed = false;

  /** @param limits - heap limit of a process (MiB), wall-clock bound of a retake (ms), processes at once */
  constructor(private readonly limits: QuarantineLimits) {
    this.limit = pLimit(limits.concurrency);
  }

  /**
   * Run a job in a quarantine process, once one of the `limits.concurrency` is free.
   * @param task - the settings the process builds its runtime from, and the validated job payload
   * @param observer - receives the run's pipe reports, as the process sends them
   * @param signal - aborts the retake (its process is killed; a retake still waiting for a process is rejected when
   *   its turn comes, without starting one)
   * @returns the run result, as the in-process run would return it
   * @throws RunCrashedError when the process runs out of memory, dies without an answer or the retake outlives
   *   `limits.timeoutMs`; the run's own error (rebuilt from its report) when the run fails normally; the signal's
   *   reason when it aborts
   */
  run(task: QuarantineTask, observer: RunObserver, signal?: AbortSignal): Promise<RunResult> {
    return this.limit(() => this.runOne(task, observer, signal));
  }

  /** Stop the idle processes; a process still running a retake is stopped when that retake ends. */
  close(): void {
    this.closed = true;
    for (const quarantine of this.idle.splice(0)) this.stop(quarantine);
  }

  /** An idle process still connected, else a new one. */
  private take(): QuarantineProcess {
    for (let reused = this.idle.pop(); reused; reused = this.idle.pop()) {
      clearTimeout(reused.idleTimer);
      if (!alive(reused.child) || !reused.child.connected) continue;
      hold(reused.child, true);
      return reused;
    }
    const child = fork(ENTRY, {
      execArgv: [...loaderOptions(ENTRY), `--max-old-space-size=${this.limits.heapMib}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    const quarantine: QuarantineProcess = { child, stderr: '' };
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      quarantine.stderr = (quarantine.stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    // an idle process that dies (or is stopped) is simply left out of the idle list
    child.on('exit', () => {
      const index = this.idle.indexOf(quarantine);
      if (index >= 0) this.idle.splice(index, 1);
    });
    // a failed kill or message, at any time; one during a retake also fails that retake
    // (docs/metrics.md#swallowed-errors)
    child.on('error', (error) => swallowedErrors.report('quarantine:process', error));
    return quarantine;
  }

  private stop(quarantine: QuarantineProcess): void {
    clearTimeout(quarantine.idleTimer);
    if (alive(quarantine.child)) quarantine.child.kill('SIGKILL');
  }

  /** Keep a process for the next retake when it may run one, else stop it. */
  private release(quarantine: QuarantineProcess, reusable: boolean): void {
    if (this.closed || !reusable || !alive(quarantine.child)) {
      this.stop(quarantine);
      return;
    }
    hold(quarantine.child, false);
    quarantine.idleTimer = setTimeout(() => {
      const index = this.idle.indexOf(quarantine);
      if (index >= 0) this.idle.splice(index, 1);
      this.stop(quarantine);
    }, IDLE_EXIT_MS);
    quarantine.idleTimer.unref();
    this.idle.push(quarantine);
  }

  private runOne(task: QuarantineTask, observer: RunObserver, signal: AbortSignal | undefined): Promise<RunResult> {
    const runId = task.payload.pipeline_run_id;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const quarantine = this.take();
    quarantine.stderr = '';
    const { child } = quarantine;
    return new Promise<RunResult>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void, reusable: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('error', onError);
        child.off('close', onClose);
        this.release(quarantine, reusable);
        outcome();
      };
      const timer = setTimeout(
        () =>
          settle(
            () =>
              reject(
                crashed(
                  runId,
                  `that process ran longer than ${this.limits.timeoutMs} ms (RUN_QUARANTINE_TIMEOUT_MS) and was killed`,
                ),
              ),
            false,
          ),
        this.limits.timeoutMs,
      );
      const onAbort = () => settle(() => reject(signal?.reason), false);
      const onMessage = (message: QuarantineMessage) => {
        if (message.kind === 'progress') {
          if (!settled) observer.pipeProgress(message.progress);
          return;
        }
        const reusable = message.heapUsedBytes < this.limits.heapMib * 1024 * 1024 * REUSE_HEAP_SHARE;
        settle(
          () => (message.kind === 'completed' ? resolve(message.result) : reject(errorFromReport(message.report))),
          reusable,
        );
      };
      const onError = (error: Error) =>
        settle(() => reject(crashed(runId, `that process failed: ${error.message}`)), false);
      const onClose = (code: number | null, exitSignal: NodeJS.Signals | null) =>
        settle(() => reject(crashed(runId, describeExit(code, exitSignal, quarantine.stderr, this.limits))), false);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('message', onMessage);
      child.on('error', onError);
      child.on('close', onClose);
      child.send(task);
    });
  }
}
