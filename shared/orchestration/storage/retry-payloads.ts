/**
 * The job payloads kept for retries (docs/checkpoints.md#retrying-a-run): a queued run that ends `FAILED`, `CANCELLED`
 * or `TIMED_OUT` keeps its job payload as it was queued at `<scope>/payloads/<run id>.json`, where an offloaded payload
 * already is (it is then left there instead of being dropped), so that `POST /v1/runs/{id}/retry` starts the same
 * submission again: the same bundle, library files, inputs, pipe, callbacks and method. The payload's inputs and
 * library files name their objects in `assets/` as queued. Kept `STORAGE_RETENTION_PAYLOADS_HOURS` from its last write.
 */
import type { ObjectStore } from '../../storage/index.js';
import { type QueuedRunJob, RUN_JOB, type RunJob } from '../queue/job-payloads.js';
import { payloadKey } from './run-objects.js';

/**
 * Keep the payload of a run that ended unsuccessfully, for its retries (an offloaded one is in place already).
 * @param store - the object store
 * @param queued - the run's job as queued
 * @throws StorageUnavailableError (503) when the store fails
 */
export async function keepPayloadForRetry(store: ObjectStore, queued: QueuedRunJob): Promise<void> {
  if ('payload_object' in queued) return;
  const body = new TextEncoder().encode(JSON.stringify(queued));
  await store.put(payloadKey(queued.storage_scope, queued.pipeline_run_id), body, 'application/json');
}

/**
 * Read the payload a run left for its retries.
 * @param store - the object store
 * @param scope - the run's `storage_scope`
 * @param runId - its `pipeline_run_id`
 * @returns the payload as queued (its inputs and library files by reference to `assets/`), or undefined when none is
 *   kept (the run never ended unsuccessfully in queue mode, or its payload is past its retention) or what is kept is
 *   not a run job
 * @throws StorageUnavailableError (503) when the store fails
 */
export async function readPayloadForRetry(
  store: ObjectStore,
  scope: string,
  runId: string,
): Promise<RunJob | undefined> {
  const object = await store.get(payloadKey(scope, runId));
  if (!object) return undefined;
  const payload = RUN_JOB.safeParse(parsedJson(new TextDecoder().decode(object.body)));
  return payload.success && payload.data.pipeline_run_id === runId ? payload.data : undefined;
}

/** The value of a JSON text, or undefined for a text that is not JSON. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
