/**
 * The history writer (docs/control-plane.md#the-history-outbox): it drains the run store's history outbox into the
 * database, in batches, behind the runs' acknowledgements. Every write of a run record marks the run in the outbox in
 * the same atomic step, and the mark is cleared only once the record as it was read has been written (and only if the
 * run did not change meanwhile), so a database outage loses nothing: the marks wait, and the history catches up when
 * the database returns. One API process at a time holds the writer's lease; the others stand by.
 */
import { randomUUID } from 'node:crypto';
import type { RunHistory } from '../../database/index.js';
import { type Logger, swallowedErrors } from '../../observability/index.js';
import type { HistoryOutbox } from '../registry/index.js';
import { historyEntryOf } from './history-entry.js';

/** How the writer paces itself. */
export interface RunHistoryWriterOptions {
  /** Runs written per batch. */
  batchSize: number;
  /** Pause between two drains of an empty or failing outbox, in ms. */
  intervalMs: number;
  /** How long the writer's lease lasts unless renewed, in ms. */
  leaseMs: number;
  logger: Logger;
}

/**
 * Most batches a {@link RunHistoryWriter.catchUp} writes (a backlog left by a database outage is the writer's to
 * drain, not one request's).
 */
const CATCH_UP_MAX_BATCHES = 20;

/** What a writer needs: the outbox it drains and the history it writes. */
export interface RunHistoryWriterDeps {
  outbox: HistoryOutbox;
  history: RunHistory;
}

/** Drains a history outbox into the run history. */
export class RunHistoryWriter {
  private readonly holder = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private stopped = false;

  /**
   * @param deps - the outbox and the history
   * @param options - batch size, pace, lease, logger
   */
  constructor(
    private readonly deps: RunHistoryWriterDeps,
    private readonly options: RunHistoryWriterOptions,
  ) {}

  /** Start draining, every `intervalMs` while the outbox is empty, at once while batches come full. */
  start(): void {
    this.schedule(0);
  }

  /**
   * Write what the outbox holds now, lease or not (the writes are idempotent): batches until one comes back short, as
   * many as the outbox held at the call and at most {@link CATCH_UP_MAX_BATCHES}. What a listing or a bulk cancel does
   * first, so a caller sees the runs it just started even while the writer is behind.
   * @returns how many runs were written
   * @throws what the outbox or the database throws
   */
  async catchUp(): Promise<number> {
    const { batchSize } = this.options;
    const backlog = await this.deps.outbox.historyBacklog();
    let written = 0;
    for (let batches = Math.min(Math.ceil(backlog / batchSize), CATCH_UP_MAX_BATCHES); batches > 0; batches -= 1) {
      const count = await this.write();
      written += count;
      if (count < batchSize) break;
    }
    return written;
  }

  /** Stop draining: waits for the drain under way, then writes what is left (shutdown; a failure is reported). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.draining;
    try {
      while ((await this.write()) >= this.options.batchSize);
    } catch (error) {
      swallowedErrors.report('history:writer', error);
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.draining = this.drain().finally(() => {
        this.draining = undefined;
      });
    }, delayMs);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    let full = false;
    try {
      if (await this.deps.outbox.leaseHistoryWriter(this.holder, this.options.leaseMs))
        full = (await this.write()) >= this.options.batchSize;
    } catch (error) {
      swallowedErrors.report('history:writer', error);
    }
    this.schedule(full ? 0 : this.options.intervalMs);
  }

  private async write(): Promise<number> {
    const { marks, records } = await this.deps.outbox.pendingHistory(this.options.batchSize);
    if (marks.length === 0) return 0;
    const kept = records.flatMap((record) => (record ? [historyEntryOf(record)] : []));
    const gone = marks.flatMap((mark, index) => (records[index] ? [] : [mark.runId]));
    await this.deps.history.record(kept);
    await this.deps.history.dropUnstarted(gone);
    await this.deps.outbox.settleHistory(marks);
    this.options.logger.debug({ written: kept.length, dropped: gone.length }, 'history:batch written');
    return marks.length;
  }
}
