/**
 * The `bullmq` orchestrator: checks the run in the API (an invalid bundle, or inputs its pipe refuses, is a 422 before
 * anything is queued), records the run in the registry under its owner and enqueues it for the workers; a run a caller
 * error refuses here (its bundle, its inputs, its run id) is counted in `mthds_runs_rejected_total`. `/v1/execute` then
 * waits for the
 * worker's outcome (bounded by `EXECUTE_TIMEOUT_MS`); `/v1/start` answers at once with the acknowledgement.
 */
import {
  EnvVarNotFoundError,
  errorFromReport,
  PipelineManagerAlreadyExistsError,
  PipelineRunIdTakenError,
  PriorityAboveCeilingError,
  RunTimeoutError,
} from '../errors/index.js';
import type { Metrics } from '../observability/index.js';
import type { RunResult } from '../wire/index.js';
import { lineFull } from './fairness/gate-refusal.js';
import type { DispatchPolicy, DispatchTerms } from './fairness/index.js';
import { RUN_PRIORITY } from './fairness/priority.js';
import type { RunGate } from './fairness/run-gate.js';
import {
  type Orchestrator,
  type RunBundleChecker,
  type StartAcknowledgement,
  startAcknowledgement,
} from './orchestrator.js';
import { type RunQueue, runJobId } from './queue/index.js';
import type { LineOffer, RunClaim, RunRecord, RunStore } from './registry/index.js';
import { countingRejections } from './run-rejections.js';
import type { OffloadedJob, RunObjects } from './storage/index.js';
import { acceptedRecord, historyFacts, type RunSubmission, toRunJob } from './submission.js';

/** A run's job made before its claim, and its offer to its owner's line (docs/fair-dispatch.md#the-scripts). */
interface OfferedJob {
  job: OffloadedJob;
  offer: LineOffer;
}

/** What the orchestrator needs. */
export interface BullmqOrchestratorDeps {
  queue: RunQueue;
  registry: RunStore;
  metrics: Metrics;
  /** Bound of a blocking execute, in ms. */
  executeTimeoutMs: number;
  /** Reads `COMPLETION_CALLBACK_SECRET` (spec §1.1: lazily, when a signature will be needed). */
  readSecret(): string | undefined;
  now(): number;
  /** Where the bundles are statically validated before anything is queued, off the event loop. */
  bundles: RunBundleChecker;
  /** Where large inputs and payloads go instead of Redis (docs/storage.md#layout). */
  objects: RunObjects;
  /** Have the worker keep each run as it was sent (`submissions/`), for its history: set with a control plane. */
  keepSubmissions?: boolean;
  /** The dispatch gate `/v1/start` runs go through, and the owners' terms there (docs/fair-dispatch.md). */
  gate: RunGate;
  policy: DispatchPolicy;
}

/**
 * The priority a run asks for, checked against its owner's ceiling (docs/fair-dispatch.md#priorities).
 * @throws PriorityAboveCeilingError (403) above the ceiling
 */
function priorityOf(submission: RunSubmission, terms: DispatchTerms): number {
  const priority = submission.priority ?? RUN_PRIORITY.default;
  if (priority > terms.priorityCeiling)
    throw new PriorityAboveCeilingError(
      `priority ${priority} is above your organization's priority ceiling (${terms.priorityCeiling}); ask for ${terms.priorityCeiling} or less.`,
    );
  return priority;
}

/**
 * Build the orchestrator.
 * @param deps - queue, registry, metrics, timeout, secret reader, clock, bundle checker and run objects
 */
export function bullmqOrchestrator(deps: BullmqOrchestratorDeps): Orchestrator {
  /** A run's job, its large inputs and payload moved to storage (docs/storage.md#layout). */
  function offloaded(submission: RunSubmission, created: RunRecord): Promise<OffloadedJob> {
    return deps.objects.offloadJob(
      toRunJob(submission, Date.parse(created.created_at), { keepSubmission: deps.keepSubmissions === true }),
    );
  }

  /**
   * The job of a run whose owner's runs have been waiting in their line, made before its claim and offered with it
   * (docs/fair-dispatch.md#the-scripts); undefined for any other run.
   */
  async function lineOffer(
    submission: RunSubmission,
    created: RunRecord,
    priority: number,
  ): Promise<OfferedJob | undefined> {
    if (!deps.gate.expectsLine(submission.owner)) return undefined;
    const job = await offloaded(submission, created);
    try {
      return { job, offer: await deps.gate.offer(job.queued, priority) };
    } catch (error) {
      await deps.objects.deleteAll(job.written).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Enqueue the job of a run whose record is stored (made now, unless it was made for the claim), or park it in its
   * owner's line; on failure drop the record and the payload object, so no run stays STARTED forever.
   */
  async function enqueue(
    submission: RunSubmission,
    created: RunRecord,
    dispatch: { priority: number; parkedUnder?: number; prepared?: OfferedJob },
  ): Promise<void> {
    const forget = async () => {
      await deps.gate.withdraw(submission.pipelineRunId, submission.owner).catch(() => undefined);
      await deps.registry.forget(submission.pipelineRunId).catch(() => undefined);
    };
    const job =
      dispatch.prepared?.job ??
      (await offloaded(submission, created).catch(async (error: unknown) => {
        await forget();
        throw error;
      }));
    const queued =
      dispatch.parkedUnder === undefined
        ? deps.queue.enqueue(job.queued, { fresh: submission.runIdGenerated === true, priority: dispatch.priority })
        : deps.gate.park(
            job.queued,
            submission.owner,
            dispatch.priority,
            dispatch.parkedUnder,
            dispatch.prepared?.offer,
          );
    await queued.catch(async (error: unknown) => {
      await forget();
      await deps.objects.deleteAll(job.written).catch(() => undefined);
      throw error;
    });
  }

  /** The error of a claim that refused the run, if it did. */
  function refusalOf(claim: RunClaim, submission: RunSubmission, terms: DispatchTerms): Error | undefined {
    if (claim === 'full') return lineFull(terms.limits);
    if (claim === 'taken')
      return new PipelineRunIdTakenError(
        `pipeline_run_id '${submission.pipelineRunId}' is held by another caller's run; use another id.`,
      );
    if (claim === 'in_flight')
      return new PipelineManagerAlreadyExistsError(
        `A run with pipeline_run_id '${submission.pipelineRunId}' is still in flight; wait for it to finish or use another id.`,
      );
    return undefined;
  }

  return {
    mode: 'bullmq',
    async execute(submission): Promise<RunResult> {
      const priority = await countingRejections(deps.metrics, 'bullmq', async () => {
        const terms = await deps.policy.termsOf(submission.owner);
        const asked = priorityOf(submission, terms);
        await deps.bundles.check(submission);
        return asked;
      });
      const created = acceptedRecord(
        submission,
        runJobId(submission.pipelineRunId),
        deps.now(),
        historyFacts(submission),
      );
      await deps.registry.save(created);
      await enqueue(submission, created, { priority });
      deps.metrics.runsStarted.inc({ mode: 'bullmq', delivery: 'blocking' });
      const finished = await deps.queue.waitUntilFinished(submission.pipelineRunId, deps.executeTimeoutMs);
      const outcome = await deps.registry.get(submission.pipelineRunId);
      if (outcome?.state === 'COMPLETED' && outcome.result) return outcome.result;
      // a failed run, or a stopped one (cancelled, timed out: docs/cancellation.md), answers its error report
      if (outcome?.error && outcome.state !== 'STARTED' && outcome.state !== 'RUNNING')
        throw errorFromReport(outcome.error);
      throw new RunTimeoutError(
        `Run ${submission.pipelineRunId} did not finish within ${deps.executeTimeoutMs} ms${finished ? '' : ' (EXECUTE_TIMEOUT_MS)'}; it goes on: poll GET /v1/runs/${submission.pipelineRunId}/status.`,
        { retryable: true },
      );
    },
    async start(submission): Promise<StartAcknowledgement> {
      if (submission.callbackUrls.length > 0 && !deps.readSecret()) {
        throw new EnvVarNotFoundError(
          'COMPLETION_CALLBACK_SECRET is not set, so completion callbacks cannot be signed; set it or drop callback_urls.',
        );
      }
      const { created, priority, claim, parkedUnder, prepared } = await countingRejections(
        deps.metrics,
        'bullmq',
        async () => {
          const terms = await deps.policy.termsOf(submission.owner);
          const asked = priorityOf(submission, terms);
          await deps.bundles.check(submission);
          const record = acceptedRecord(
            submission,
            runJobId(submission.pipelineRunId),
            deps.now(),
            historyFacts(submission),
          );
          const offered = await lineOffer(submission, record, asked);
          const dropOffered = () => offered && deps.objects.deleteAll(offered.job.written).catch(() => undefined);
          const answer = await deps.registry
            .claim(record, terms.limits, offered?.offer)
            .catch(async (error: unknown) => {
              await dropOffered();
              throw error;
            });
          deps.gate.noteClaim(submission.owner, answer);
          deps.metrics.runsGated.inc({
            outcome: answer === 'full' ? 'refused' : answer === 'parked' || answer === 'lined' ? 'parked' : 'queued',
          });
          const refusal = refusalOf(answer, submission, terms);
          if (refusal) {
            await dropOffered();
            throw refusal;
          }
          return {
            created: record,
            priority: asked,
            claim: answer,
            ...(answer === 'parked' ? { parkedUnder: terms.limits.inFlight } : {}),
            ...(offered ? { prepared: offered } : {}),
          };
        },
      );
      if (claim !== 'lined')
        try {
          await enqueue(submission, created, {
            priority,
            ...(parkedUnder === undefined ? {} : { parkedUnder }),
            ...(prepared ? { prepared } : {}),
          });
        } catch (error) {
          await deps.registry.abandon(submission.pipelineRunId).catch(() => undefined);
          throw error;
        }
      deps.metrics.runsStarted.inc({ mode: 'bullmq', delivery: 'fire_and_forget' });
      return startAcknowledgement(created, submission.methodProvenance);
    },
  };
}
