/**
 * The retention sweep of run storage (docs/storage.md#retention): every `STORAGE_SWEEP_MINUTES`, each object older
 * than its leaf's retention (`STORAGE_RETENTION_<LEAF>_HOURS`; 0 keeps the leaf's objects) is deleted. Age is counted
 * from the object's last write. The API process runs it; several processes sweeping one store is harmless.
 */
import type { StorageSettings } from '../../config/index.js';
import type { Logger } from '../../observability/index.js';
import type { ObjectStore } from '../../storage/index.js';

const HOUR_MS = 3_600_000;

/** What one sweep did. */
export interface SweepOutcome {
  /** Objects looked at. */
  seen: number;
  /** Objects deleted. */
  deleted: number;
}

/**
 * Sweep once.
 * @param store - the object store
 * @param retentionHours - retention per leaf, in hours (0: kept)
 * @param now - the current time, epoch ms
 * @throws StorageUnavailableError (503) when the store fails
 */
export async function sweepStorage(
  store: ObjectStore,
  retentionHours: StorageSettings['retentionHours'],
  now: number,
): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { seen: 0, deleted: 0 };
  for await (const object of store.list()) {
    outcome.seen += 1;
    const hours = retentionHours[object.key.leaf];
    if (hours > 0 && now - object.modifiedAt > hours * HOUR_MS) {
      await store.delete(object.key);
      outcome.deleted += 1;
    }
  }
  return outcome;
}

/**
 * Sweep now and then every `STORAGE_SWEEP_MINUTES` (a failed sweep is logged and the next one tries again).
 * @param store - the object store
 * @param settings - retention and period
 * @param logger - where sweeps are logged
 * @returns a function that stops the sweeps
 */
export function startStorageSweep(store: ObjectStore, settings: StorageSettings, logger: Logger): () => void {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    sweepStorage(store, settings.retentionHours, Date.now())
      .then((outcome) => {
        if (outcome.deleted > 0) logger.info(outcome, 'storage:sweep deleted objects past their retention');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'storage:sweep failed; the next one tries again'))
      .finally(() => {
        running = false;
      });
  };
  sweep();
  const timer = setInterval(sweep, settings.sweepMinutes * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}
