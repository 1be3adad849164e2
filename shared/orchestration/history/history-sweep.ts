/**
 * The control plane's retention sweep (docs/control-plane.md#retention): every period, the history rows of runs
 * created more than `RUN_HISTORY_RETENTION_DAYS` ago are deleted (a batch at a time), and so are the idempotency keys
 * whose lifetime ended. Several API processes sweeping one database is harmless.
 */
import type { IdempotencyKeys, RunHistory } from '../../database/index.js';
import type { Logger } from '../../observability/index.js';

const DAY_MS = 86_400_000;
/** Rows deleted per statement, so a large backlog never holds one long transaction. */
const SWEEP_BATCH = 1000;

/** What the sweep deletes and how often. */
export interface HistorySweepOptions {
  history: RunHistory;
  idempotency: IdempotencyKeys;
  /** `RUN_HISTORY_RETENTION_DAYS`; 0 keeps every row. */
  retentionDays: number;
  /** Period, in ms. */
  periodMs: number;
  now: () => number;
  logger: Logger;
}

/**
 * Sweep once.
 * @returns the history rows and idempotency keys deleted
 * @throws what the database throws
 */
async function sweepHistory(options: HistorySweepOptions): Promise<{ runs: number; idempotencyKeys: number }> {
  let runs = 0;
  if (options.retentionDays > 0) {
    const before = new Date(options.now() - options.retentionDays * DAY_MS);
    for (let deleted = SWEEP_BATCH; deleted === SWEEP_BATCH; runs += deleted)
      deleted = await options.history.sweep(before, SWEEP_BATCH);
  }
  return { runs, idempotencyKeys: await options.idempotency.sweep() };
}

/**
 * Sweep now and then every period (a failed sweep is logged and the next one tries again).
 * @returns a function that stops the sweeps
 */
export function startHistorySweep(options: HistorySweepOptions): () => void {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    sweepHistory(options)
      .then((outcome) => {
        if (outcome.runs + outcome.idempotencyKeys > 0)
          options.logger.info(outcome, 'history:sweep deleted rows past their retention');
      })
      .catch((error: unknown) => options.logger.warn({ err: error }, 'history:sweep failed; the next one tries again'))
      .finally(() => {
        running = false;
      });
  };
  sweep();
  const timer = setInterval(sweep, options.periodMs);
  timer.unref();
  return () => clearInterval(timer);
}
