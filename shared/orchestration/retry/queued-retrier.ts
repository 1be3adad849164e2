/**
 * The queue mode's retrier (docs/checkpoints.md#retrying-a-run): it reads the payload the original run left for its
 * retries, checks it is that run's, and enqueues the retry's job (`retryJob`) as `/v1/start` enqueues a run — its
 * record claimed under a fresh id, its large payload offloaded, then queued; on a failure the record and the objects
 * written are dropped, so no retry stays `STARTED` forever. The original's bundle was checked when it was accepted, so
 * it is not checked again.
 */
import { randomUUID } from 'node:crypto';
import {
  EnvVarNotFoundError,
  PipelineManagerAlreadyExistsError,
  RunSubmissionUnavailableError,
} from '../../errors/index.js';
import type { Metrics } from '../../observability/index.js';
import type { DispatchPolicy } from '../fairness/dispatch-policy.js';
import { lineFull } from '../fairness/gate-refusal.js';
import { RUN_PRIORITY } from '../fairness/priority.js';
import type { RunGate } from '../fairness/run-gate.js';
import { startAcknowledgement } from '../orchestrator.js';
import { type RunQueue, runJobId } from '../queue/index.js';
import type { RunStore } from '../registry/index.js';
import { type RunObjects, readPayloadForRetry } from '../storage/index.js';
import { acceptedRecordOfJob } from '../submission.js';
import { checkRetryable, type RetryAcknowledgement, type RunRetrier, retryJob } from './run-retrier.js';

/** What the retrier needs. */
export interface QueuedRetrierDeps {
  queue: RunQueue;
  registry: RunStore;
  /** The dispatch gate a retry goes through like any started run, and the owners' terms (docs/fair-dispatch.md). */
  gate: RunGate;
  policy: DispatchPolicy;
  /** Where the original's payload is read and the retry's large payload goes. */
  objects: RunObjects;
  metrics: Metrics;
  /** Reads `COMPLETION_CALLBACK_SECRET` (a retry of a run with callbacks signs them). */
  readSecret(): string | undefined;
  now(): number;
  /** Have the worker keep each retry as it was sent (`submissions/`), for its history: set with a control plane. */
  keepSubmissions?: boolean;
  /** The id of a new retry (a random UUID by default; a run partition's own ids: docs/redis.md#sharded-run-queues). */
  newRunId?: () => string;
}

/**
 * Build the retrier.
 * @param deps - queue, registry, run objects, metrics, secret reader, clock
 */
export function queuedRunRetrier(deps: QueuedRetrierDeps): RunRetrier {
  return {
    async retry(original, requestId): Promise<RetryAcknowledgement> {
      checkRetryable(original);
      const runId = original.pipeline_run_id;
      const kept = await readPayloadForRetry(deps.objects.store, original.storage_scope, runId);
      // the payload of this very submission, not of an earlier run of the same id
      if (kept?.request_id !== original.request_id || kept.created_at !== Date.parse(original.created_at))
        throw new RunSubmissionUnavailableError(
          `What run '${runId}' was sent is no longer kept (STORAGE_RETENTION_PAYLOADS_HOURS), or the run did not go through the queue; start it again with POST /v1/start.`,
        );
      if (kept.callback_urls.length > 0 && !deps.readSecret())
        throw new EnvVarNotFoundError(
          'COMPLETION_CALLBACK_SECRET is not set, so the completion callbacks of the retry cannot be signed; set it.',
        );
      const job = retryJob(kept, {
        pipelineRunId: (deps.newRunId ?? randomUUID)(),
        requestId,
        createdAt: deps.now(),
        keepSubmission: deps.keepSubmissions === true,
      });
      const record = acceptedRecordOfJob(job, runJobId(job.pipeline_run_id));
      const { limits } = await deps.policy.termsOf(record.owner);
      const claim = await deps.registry.claim(record, limits);
      if (claim === 'full') throw lineFull(limits);
      if (claim !== 'claimed' && claim !== 'parked')
        throw new PipelineManagerAlreadyExistsError(
          `The new run id '${job.pipeline_run_id}' is already in use; retry the request.`,
        );
      try {
        const offloaded = await deps.objects.offloadJob(job);
        const queued =
          claim === 'parked'
            ? deps.gate.park(offloaded.queued, record.owner, RUN_PRIORITY.default, limits.inFlight)
            : deps.queue.enqueue(offloaded.queued, { fresh: true });
        await queued.catch(async (error: unknown) => {
          await deps.objects.deleteAll(offloaded.written).catch(() => undefined);
          throw error;
        });
      } catch (error) {
        await deps.gate.withdraw(job.pipeline_run_id, record.owner).catch(() => undefined);
        await deps.registry.abandon(job.pipeline_run_id).catch(() => undefined);
        throw error;
      }
      deps.metrics.runsStarted.inc({ mode: 'bullmq', delivery: 'fire_and_forget' });
      return { ...startAcknowledgement(record, job.method_provenance), retry_of: runId };
    },
  };
}
