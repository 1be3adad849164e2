/**
 * Runs as they were sent (docs/control-plane.md#run-history): `<scope>/submissions/<run id>.json` holds a run's bundle
 * texts and inputs, written by whatever runs it (a worker when it takes the run, the API process in direct mode) while
 * it runs, read back by `GET /v1/runs/{id}`.
 */
import type { ObjectKey, ObjectStore } from '../../storage/index.js';
import { objectPath, runObjectName } from '../../storage/index.js';

/** A run as it was sent, as its history shows it (`GET /v1/runs/{id}`). */
export interface RunSubmissionSnapshot {
  /** The bundle texts, one per file. */
  mthds_contents: string[];
  /** The `inputs`, as sent. */
  inputs: unknown;
}

/**
 * Where a run's submission is kept.
 * @param scope - the run's `storage_scope`
 * @param runId - its `pipeline_run_id`
 */
export function submissionKey(scope: string, runId: string): ObjectKey {
  return { scope, leaf: 'submissions', name: runObjectName(runId, 'json') };
}

/** Runs in one object store, as they were sent. */
export class RunSubmissions {
  /** Writes in flight, by object path. */
  private readonly pending = new Map<string, Promise<void>>();

  /**
   * @param store - the object store
   * @param limit - runs each write in the slots the store's other background writes share (`p-limit`)
   * @param onWriteError - told of a write that failed (the run's history then shows no sources)
   */
  constructor(
    private readonly store: ObjectStore,
    private readonly limit: <T>(write: () => Promise<T>) => Promise<T>,
    private readonly onWriteError: (error: unknown, runId: string) => void,
  ) {}

  /**
   * Keep a run as it was sent, in the background.
   * @param scope - the run's `storage_scope`
   * @param runId - its `pipeline_run_id`
   * @param snapshot - its bundle texts and inputs
   * @returns the write, which never rejects (a failure goes to `onWriteError`)
   */
  save(scope: string, runId: string, snapshot: RunSubmissionSnapshot): Promise<void> {
    const key = submissionKey(scope, runId);
    const path = objectPath(key);
    const body = new TextEncoder().encode(JSON.stringify(snapshot));
    const written: Promise<void> = this.limit(() => this.store.put(key, body, 'application/json'))
      .catch((error: unknown) => this.onWriteError(error, runId))
      .finally(() => {
        if (this.pending.get(path) === written) this.pending.delete(path);
      });
    this.pending.set(path, written);
    return written;
  }

  /**
   * Read a run as it was sent (after its write in flight, if any).
   * @returns the snapshot, or undefined when none is kept (its write failed, or past its retention)
   * @throws StorageUnavailableError (503) when the store fails
   */
  async read(scope: string, runId: string): Promise<RunSubmissionSnapshot | undefined> {
    const key = submissionKey(scope, runId);
    await this.pending.get(objectPath(key));
    const object = await this.store.get(key);
    return object ? (JSON.parse(new TextDecoder().decode(object.body)) as RunSubmissionSnapshot) : undefined;
  }

  /** Wait for every write in flight to end. Never rejects. */
  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending.values());
  }
}
