/**
 * The run history at the edge (docs/control-plane.md#run-history): once the control plane is open, the history and
 * its writer (draining the run store's outbox), the usage ledger, the idempotency keys and the retention sweep.
 */
import { type ControlPlaneDatabase, IdempotencyKeys, RunHistory, UsageLedger } from '../shared/database/index.js';
import type { Logger } from '../shared/observability/index.js';
import { type HistoryOutbox, RunHistoryWriter, startHistorySweep } from '../shared/orchestration/index.js';

/** What the history routes and the run routes use. */
export interface RunHistoryService {
  readonly history: RunHistory;
  readonly writer: RunHistoryWriter;
  readonly usage: UsageLedger;
  readonly idempotency: IdempotencyKeys;
}

/** Where the service releases what it started (the entry point's resource stack). */
export interface ReleaseList {
  defer(name: string, release: () => Promise<void> | void): void;
}

/** How the service runs. */
export interface RunHistoryServiceOptions {
  /** The run store's history outbox. */
  outbox: HistoryOutbox;
  logger: Logger;
  /** `RUN_HISTORY_RETENTION_DAYS`. */
  retentionDays: number;
  /** `IDEMPOTENCY_KEY_TTL_HOURS`. */
  idempotencyTtlHours: number;
  /** Period of the retention sweep, in ms (`STORAGE_SWEEP_MINUTES`). */
  sweepPeriodMs: number;
  now: () => number;
  /** Where the writer and the sweep are stopped on shutdown; without it they run until the process ends. */
  resources?: ReleaseList;
}

/**
 * Runs written per batch, and the writer's pace and lease (docs/control-plane.md#the-history-outbox): a run whose
 * states follow one another within a second (accepted, running, ended) is written once, not once per state.
 */
const WRITER = { batchSize: 500, intervalMs: 1000, leaseMs: 5000 } as const;
/** How long a duplicate request waits for the first one with its `Idempotency-Key`, in ms. */
const IDEMPOTENCY_LOCK_WAIT_MS = 10_000;

/**
 * Open the service once the control plane is open, and start its writer and sweep.
 * @param database - the control plane, as it opens (its failure stops the process where it is opened)
 * @param options - outbox, logger, retention, clock and the resource list
 * @returns the service; rejects as `database` does
 */
export function openRunHistory(
  database: Promise<ControlPlaneDatabase>,
  options: RunHistoryServiceOptions,
): Promise<RunHistoryService> {
  const service = database.then((opened) => {
    const history = new RunHistory(opened);
    const idempotency = new IdempotencyKeys(opened, {
      ttlMs: options.idempotencyTtlHours * 3_600_000,
      lockWaitMs: IDEMPOTENCY_LOCK_WAIT_MS,
      now: options.now,
    });
    const writer = new RunHistoryWriter({ outbox: options.outbox, history }, { ...WRITER, logger: options.logger });
    writer.start();
    const stopSweep = startHistorySweep({
      history,
      idempotency,
      retentionDays: options.retentionDays,
      periodMs: options.sweepPeriodMs,
      now: options.now,
      logger: options.logger,
    });
    options.resources?.defer('run history writer', async () => {
      stopSweep();
      await writer.stop();
    });
    return { history, writer, usage: new UsageLedger(opened), idempotency };
  });
  // The entry point that opened the database reports its failure; this derived promise must not report it again.
  service.catch(() => undefined);
  return service;
}
