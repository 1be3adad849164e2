/**
 * The objects of runs in the object store (spec §2.3; docs/storage.md#layout), all under the run's
 * `storage_scope`:
 *
 * - `results/<run id>.json`: the record of every finished run (state, result or error report, owner), kept beyond the
 *   Redis record's `RUN_RECORD_TTL_SECONDS`;
 * - `assets/<sha256>.<ext>`: what the caller sent inline (large `data:` URLs of inputs, the library files of a
 *   `bundle_b64` / `files` bundle);
 * - `generated/<sha256>.<ext>`: media the run made (generated images, large `data:` URLs of its outputs);
 * - `payloads/<run id>.json`: a queue job payload larger than `STORAGE_PAYLOAD_OFFLOAD_KIB`, which Redis then only
 *   references, and the payload of a run that ended unsuccessfully, kept for its retries (`retry-payloads.ts`);
 * - `submissions/<run id>.json`: the run as it was sent, for its history (`run-submissions.ts`).
 *
 * The scope is never interpreted: it is the prefix, as the API decided it (the request's, else the owner's id).
 */
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { lookup } from 'mime-types';
import pLimit from 'p-limit';
import { StorageObjectNotFoundError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import type { ObjectKey, ObjectStore } from '../../storage/index.js';
import { objectPath, runObjectName } from '../../storage/index.js';
import { type OffloadedRunJob, type QueuedRunJob, RUN_JOB, type RunJob } from '../queue/job-payloads.js';
import { type RunRecord, recordText } from '../registry/index.js';
import { inlineStorageRefs } from './input-refs.js';
import { inlineRefs, MediaOffloader } from './media-refs.js';
import { RunSubmissions } from './run-submissions.js';

/** How much stays inline, and what a failed background write tells. */
export interface RunObjectsOptions {
  /** A job payload larger than this, in bytes of JSON, goes to `payloads/` (`STORAGE_PAYLOAD_OFFLOAD_KIB`). */
  payloadOffloadBytes: number;
  /**
   * A `data:` URL longer than this, in characters, goes to `assets/` or `generated/`
   * (`STORAGE_INLINE_MEDIA_MAX_BYTES`).
   */
  inlineMediaMaxBytes: number;
  /**
   * Told of a finished run whose `results/` write failed in the background ({@link RunObjects.saveFinished}); its
   * Redis record still serves it until `RUN_RECORD_TTL_SECONDS`. Unset: the failure goes unreported.
   */
  onResultWriteError?: (error: unknown, runId: string) => void;
}

/** How many `results/` writes run at once; the others queue. */
const RESULT_WRITES_AT_ONCE = 16;
/**
 * How many `results/` writes may queue before `saveFinished` waits for its own (write-behind backpressure: a slow
 * store slows the runs down instead of growing memory without bound).
 */
const MAX_QUEUED_RESULT_WRITES = 256;

/**
 * A job as queued, and the payload object written for it (deleted again if it cannot be queued; its content-addressed
 * assets may be shared with other runs and are left to the retention sweep).
 */
export interface OffloadedJob {
  queued: QueuedRunJob;
  written: ObjectKey[];
}

const JSON_TYPE = 'application/json';
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/**
 * The names of a run's inputs (object form: its keys; working-memory form: the keys of `root`).
 * @param inputs - the request's `inputs`
 */
export function inputNamesOf(inputs: unknown): Set<string> {
  if (inputs === null || typeof inputs !== 'object' || Array.isArray(inputs)) return new Set();
  const root = (inputs as Record<string, unknown>)['root'];
  const named = 'root' in inputs && 'aliases' in inputs && root !== null && typeof root === 'object' ? root : inputs;
  return new Set(Object.keys(named));
}

function resultKey(scope: string, runId: string): ObjectKey {
  return { scope, leaf: 'results', name: runObjectName(runId, 'json') };
}

/** The asset name of a library file: its SHA-256 and, when it has a plain one, its extension. */
function libraryFileName(path: string, bytes: Uint8Array): string {
  const extension = extname(path).slice(1);
  const digest = createHash('sha256').update(bytes).digest('hex');
  return /^[A-Za-z0-9]{1,16}$/.test(extension) ? `${digest}.${extension}` : digest;
}

/**
 * Where a run's job payload is kept: offloaded while it waits (`STORAGE_PAYLOAD_OFFLOAD_KIB`), and for its retries
 * once it ended unsuccessfully (`retry-payloads.ts`).
 * @param scope - the run's `storage_scope`
 * @param runId - its `pipeline_run_id`
 */
export function payloadKey(scope: string, runId: string): ObjectKey {
  return { scope, leaf: 'payloads', name: runObjectName(runId, 'json') };
}

/**
 * The run objects of a process in a store, a failed background result write logged as a warning.
 * @param store - the object store
 * @param options - the storage settings (`STORAGE_PAYLOAD_OFFLOAD_KIB`, `STORAGE_INLINE_MEDIA_MAX_BYTES`)
 * @param logger - where a failed result write is logged
 */
export function loggedRunObjects(
  store: ObjectStore,
  options: Omit<RunObjectsOptions, 'onResultWriteError'>,
  logger: Logger,
): RunObjects {
  return new RunObjects(store, {
    ...options,
    onResultWriteError: (error, runId) =>
      logger.warn(
        { err: error, pipeline_run_id: runId },
        'run:result could not be kept in storage; the run record keeps it until RUN_RECORD_TTL_SECONDS',
      ),
  });
}

/** Runs' objects in one object store. */
export class RunObjects {
  /** `results/` writes in flight, by object path, with the record each writes (read back by `readFinished`). */
  private readonly pendingResults = new Map<string, { record: RunRecord; written: Promise<void> }>();
  private readonly resultWrites = pLimit(RESULT_WRITES_AT_ONCE);
  /** The runs as they were sent (`submissions/`), written in the same slots as the `results/` writes. */
  readonly submissions: RunSubmissions;

  constructor(
    readonly store: ObjectStore,
    private readonly options: RunObjectsOptions,
  ) {
    this.submissions = new RunSubmissions(store, this.resultWrites, (error, runId) =>
      options.onResultWriteError?.(error, runId),
    );
  }

  /**
   * Keep a finished run: the large `data:` URLs of its result go to `assets/` (those of its inputs) or `generated/`
   * (the rest) and are replaced by storage references, then the record goes to `results/<run id>.json` in the
   * background (write-behind, docs/storage.md#results-beyond-the-run-record): the run's answer does not wait for that
   * write, which this
   * process's `readFinished` already sees and `flush` awaits. At most 16 such writes run at once; when more than 256
   * queue behind them, this waits for its own. A failed background write is told to `onResultWriteError`.
   * @param record - the finished record (COMPLETED with `result`, or FAILED with `error`)
   * @param inputNames - the names of the run's inputs ({@link inputNamesOf})
   * @returns the record as stored, with references in place of the moved URLs
   * @throws StorageUnavailableError (503) when the store fails while moving media
   */
  async saveFinished(record: RunRecord, inputNames: ReadonlySet<string>): Promise<RunRecord> {
    const scope = record.storage_scope;
    let stored = record;
    const media = new MediaOffloader(this.store, scope, this.options.inlineMediaMaxBytes);
    if (record.result && media.mayHoldLargeUrls(record.result)) {
      for (const [name, stuff] of Object.entries(record.result.pipe_output.working_memory.root))
        await media.offload(stuff, inputNames.has(name) ? 'assets' : 'generated');
      await media.offload(record.result, 'generated');
      stored = { ...record, result: media.replace(record.result) };
    }
    const written = this.writeBehind(resultKey(scope, record.pipeline_run_id), stored);
    if (this.resultWrites.pendingCount > MAX_QUEUED_RESULT_WRITES) await written;
    return stored;
  }

  /**
   * Write a finished record to `results/` (at most 16 at once), tracked until it ends; a failure goes to
   * `onResultWriteError`.
   * @returns the write, never rejecting
   */
  private writeBehind(key: ObjectKey, record: RunRecord): Promise<void> {
    const path = objectPath(key);
    const written = this.resultWrites(() =>
      this.store.put(key, new TextEncoder().encode(recordText(record)), JSON_TYPE),
    )
      .catch((error: unknown) => this.options.onResultWriteError?.(error, record.pipeline_run_id))
      .finally(() => {
        if (this.pendingResults.get(path)?.written === written) this.pendingResults.delete(path);
      });
    this.pendingResults.set(path, { record, written });
    return written;
  }

  /** Wait for every background write in flight to end (shutdown: before the store closes). Never rejects. */
  async flush(): Promise<void> {
    while (this.pendingResults.size > 0)
      await Promise.all([...this.pendingResults.values()].map(({ written }) => written));
    await this.submissions.flush();
  }

  /**
   * Read a finished run kept in `results/`.
   * @param scope - the run's `storage_scope`
   * @param runId - its `pipeline_run_id`
   * @returns the record, or undefined when none is kept (never finished, or past its retention)
   * @throws StorageUnavailableError (503) when the store fails
   */
  async readFinished(scope: string, runId: string): Promise<RunRecord | undefined> {
    const key = resultKey(scope, runId);
    const pending = this.pendingResults.get(objectPath(key));
    if (pending) return pending.record;
    const object = await this.store.get(key);
    if (!object) return undefined;
    const record = JSON.parse(new TextDecoder().decode(object.body)) as RunRecord;
    return record.pipeline_run_id === runId && record.storage_scope === scope ? record : undefined;
  }

  /**
   * Prepare a job payload for the queue: large `data:` URLs of its inputs and its library files go to `assets/`; then,
   * when the payload is still larger than `STORAGE_PAYLOAD_OFFLOAD_KIB`, it goes whole to `payloads/<run id>.json`
   * and the queue carries an {@link OffloadedRunJob}.
   * @param job - the whole payload
   * @throws StorageUnavailableError (503) when the store fails
   */
  async offloadJob(job: RunJob): Promise<OffloadedJob> {
    const media = new MediaOffloader(this.store, job.storage_scope, this.options.inlineMediaMaxBytes);
    await media.offload(job.inputs, 'assets');
    const { library_files: libraryFiles, ...rest } = job;
    // not `{ ...rest, inputs, … }` (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
    const lighter: RunJob = Object.assign({}, rest, {
      inputs: media.replace(job.inputs),
      ...(libraryFiles ? { library_file_objects: await this.storeLibraryFiles(job.storage_scope, libraryFiles) } : {}),
    });
    const body = encode(lighter);
    if (body.byteLength <= this.options.payloadOffloadBytes) return { queued: lighter, written: [] };
    const key = payloadKey(job.storage_scope, job.pipeline_run_id);
    await this.store.put(key, body, JSON_TYPE);
    const queued: OffloadedRunJob = {
      pipeline_run_id: job.pipeline_run_id,
      request_id: job.request_id,
      owner: job.owner,
      storage_scope: job.storage_scope,
      pipe_code: job.pipe_code,
      callback_urls: job.callback_urls,
      created_at: job.created_at,
      ...(job.deadline_at !== undefined ? { deadline_at: job.deadline_at } : {}),
      payload_object: key.name,
      ...(job.history ? { history: job.history } : {}),
    };
    return { queued, written: [key] };
  }

  /** Write a bundle's library files to `assets/`, once per content; returns path → object name. */
  private async storeLibraryFiles(scope: string, files: Record<string, string>): Promise<Record<string, string>> {
    const names: Record<string, string> = {};
    for (const [path, base64] of Object.entries(files)) {
      const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
      const name = libraryFileName(path, bytes);
      await this.store.put({ scope, leaf: 'assets', name }, bytes, lookup(path) || 'application/octet-stream');
      names[path] = name;
    }
    return names;
  }

  /** Read a job's library files back from `assets/`: path → base64. */
  private async readLibraryFiles(job: RunJob, names: Record<string, string>): Promise<Record<string, string>> {
    const files: Record<string, string> = {};
    for (const [path, name] of Object.entries(names)) {
      const object = await this.store.get({ scope: job.storage_scope, leaf: 'assets', name });
      if (!object)
        throw new StorageObjectNotFoundError(
          `The library file '${path}' of run '${job.pipeline_run_id}' is no longer stored (STORAGE_RETENTION_ASSETS_HOURS).`,
        );
      files[path] = Buffer.from(object.body).toString('base64');
    }
    return files;
  }

  /**
   * The whole payload of a queued job, with its library files read back from `assets/` and its storage references (to
   * `assets/`, and those the caller named: docs/uploads.md#in-inputs) turned into `data:` URLs.
   * @param queued - the job as queued
   * @throws StorageObjectNotFoundError when an offloaded payload or an object an input names is gone (past its
   *   retention); StorageUnavailableError
   *   (503) when the store fails; a ZodError for a stored payload that is not a run job
   */
  async loadJob(queued: QueuedRunJob): Promise<RunJob> {
    let job: RunJob;
    if ('payload_object' in queued) {
      const object = await this.store.get(payloadKey(queued.storage_scope, queued.pipeline_run_id));
      if (!object)
        throw new StorageObjectNotFoundError(
          `The payload of run '${queued.pipeline_run_id}' is no longer stored (STORAGE_RETENTION_PAYLOADS_HOURS).`,
        );
      job = RUN_JOB.parse(JSON.parse(new TextDecoder().decode(object.body)));
    } else job = queued;
    const { library_file_objects: names, ...whole } = job;
    return {
      ...whole,
      inputs: await inlineRefs(
        await inlineStorageRefs(job.inputs, this.store, { owner: job.owner, scope: job.storage_scope }),
        this.store,
        job.storage_scope,
      ),
      ...(names ? { library_files: await this.readLibraryFiles(job, names) } : {}),
    };
  }

  /**
   * Drop the payload of a job that will not run again (it completed; a run that ended unsuccessfully keeps it for its
   * retries, `retry-payloads.ts`).
   * @param queued - the job as queued
   */
  async dropPayload(queued: QueuedRunJob): Promise<void> {
    if ('payload_object' in queued) await this.store.delete(payloadKey(queued.storage_scope, queued.pipeline_run_id));
  }

  /**
   * Delete objects (those of a job that could not be queued).
   * @param keys - their keys
   */
  async deleteAll(keys: readonly ObjectKey[]): Promise<void> {
    await Promise.all(keys.map((key) => this.store.delete(key)));
  }
}
