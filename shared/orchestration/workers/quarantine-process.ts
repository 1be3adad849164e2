/**
 * Entry of a quarantine process (forked by `run-in-quarantine.ts`): receives tasks over IPC, one at a time, and runs
 * each run job with
 * its own inference backend, document extractor, ids and template limits, built from the settings the way
 * `worker/main.ts` builds them (its provider rate limits count in Redis with the other processes; templates render on
 * this process's own thread: the process is the isolation), replays the steps an earlier attempt checkpointed and
 * checkpoints those it finishes (docs/checkpoints.md; a checkpoint problem is one line on its stderr), re-attaches to
 * the child jobs of its run's first attempt when they fan out (docs/fan-out.md), sends
 * its pipe reports as they come (the parent publishes them as run events), then the run result or the error report
 * with the heap it holds after the run (the parent reuses it for another retake only while that is low). Its heap
 * limit is set by its parent; a run that exhausts it kills only this process. It exits as soon as its parent goes away
 * (IPC disconnect), so it never outlives the worker that started it.
 */
import type { Settings } from '../../config/index.js';
import { type ErrorReport, toErrorReport } from '../../errors/index.js';
import { createDocumentExtractor, selectInferenceBackend } from '../../inference/index.js';
import { type PipeProgress, randomIdSource } from '../../runtime/index.js';
import { configureTemplateLimits } from '../../templating/index.js';
import type { RunResult } from '../../wire/index.js';
import { RunCheckpoints } from '../checkpoints/index.js';
import { ChildQueue, JobSeals, openRedis, QueueKeys, type RunJob } from '../queue/index.js';
import { executeSubmission, submissionOfJob } from '../submission.js';

/** What the parent sends the quarantine process (one IPC message, JSON-serialized). */
export interface QuarantineTask {
  /** The worker's settings (inference, documents, error docs URL). */
  settings: Settings;
  /** The validated run job payload. */
  payload: RunJob;
  /**
   * The run's job id, when its children fan out (`RUN_FAN_OUT`): the retake re-attaches to the children its first
   * attempt added (docs/fan-out.md#retaken-runs), so none runs twice; without it they run in this process.
   */
  runJobId?: string;
}

/** The answer of a task: the result, or the run's own failure as an error report. */
type QuarantineAnswer = { kind: 'completed'; result: RunResult } | { kind: 'failed'; report: ErrorReport };

/**
 * What the quarantine process sends back: each pipe report as it comes, then the answer with the bytes of heap the
 * process holds after the run.
 */
export type QuarantineMessage =
  | { kind: 'progress'; progress: PipeProgress }
  | (QuarantineAnswer & { heapUsedBytes: number });

function send(message: QuarantineMessage): void {
  process.send?.(message);
}

async function runTask(task: QuarantineTask): Promise<QuarantineAnswer> {
  const { settings, payload } = task;
  configureTemplateLimits({ maxOutputKib: settings.templates.maxOutputKib });
  const redis = openRedis(settings.queue.redis, 'producer');
  const keys = new QueueKeys(settings.queue.prefix);
  const checkpoints = new RunCheckpoints(redis, keys, {
    ttlSeconds: settings.queue.runRecordTtlSeconds,
    maxBytes: settings.checkpoints.maxBytes,
    retentionSeconds: settings.checkpoints.retentionHours * 3600,
    onProblem: (runId, message, error) =>
      process.stderr.write(`run ${runId}: checkpoint: ${message}${error ? ` (${String(error)})` : ''}\n`),
  }).forRun(payload, true);
  const children =
    task.runJobId === undefined
      ? undefined
      : new ChildQueue({
          connection: openRedis(settings.queue.redis, 'worker'),
          eventsConnection: openRedis(settings.queue.redis, 'worker'),
          keys,
          seals: new JobSeals(redis, keys),
        });
  const fanOut = children?.fanOutFor({
    pipelineRunId: payload.pipeline_run_id,
    requestId: payload.request_id,
    runJobId: task.runJobId ?? '',
    createdAt: payload.created_at,
    retake: true,
  });
  try {
    const result = await executeSubmission(submissionOfJob(payload), {
      inference: selectInferenceBackend(settings.inference, settings.serviceConfigDir, process.env, {
        store: { kind: 'redis', client: redis, keyPrefix: settings.queue.sharedPrefix ?? settings.queue.prefix },
      }),
      extractor: createDocumentExtractor(settings.documents),
      ids: randomIdSource(),
      now: Date.now,
      batchConcurrency: settings.fanOut.batchMaxParallel,
      maxPipes: settings.runMaxPipes,
      observer: { pipeProgress: (progress) => send({ kind: 'progress', progress }) },
      ...(checkpoints ? { checkpoints } : {}),
      ...(fanOut ? { fanOut } : {}),
    });
    return { kind: 'completed', result };
  } catch (error) {
    return { kind: 'failed', report: toErrorReport(error, settings.errorDocsUrl) };
  } finally {
    await children?.close();
    redis.disconnect();
  }
}

process.once('disconnect', () => process.exit(1));
process.on('message', (task: QuarantineTask) => {
  void runTask(task).then((answer) => send({ ...answer, heapUsedBytes: process.memoryUsage().heapUsed }));
});
