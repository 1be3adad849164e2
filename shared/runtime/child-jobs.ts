/**
 * Running a controller's children (the items of a batch, the branches of a PipeParallel; RUNTIME.md §3.3, §3.5): at
 * most `batchConcurrency` at once, each on its own working memory, in-process through the router, or — when the host
 * gave a fan-out port — as child jobs elsewhere (docs/fan-out.md). Either way each child's memory ends with the
 * child's latest output as its main outcome, which is all a controller reads back, and the first failure fails the
 * whole (as `Promise.all` does). A fanned-out child's usage, pipe reports and graph nodes join the run's.
 */
import pLimit from 'p-limit';
import type { FanOutChild, FanOutOutcome } from './fan-out-port.js';
import type { PipeJob, RunEnvironment } from './pipe-job.js';
import { DEFAULT_BATCH_CONCURRENCY } from './ports.js';
import { stuffOfSnapshot, type WorkingMemory } from './working-memory.js';

/** A child job as the fan-out port carries it. */
function childOf(job: PipeJob): FanOutChild {
  return {
    pipeRef: job.pipe.ref,
    memory: job.memory.snapshot(),
    outputName: job.outputName,
    params: {
      outputMultiplicity: job.params.outputMultiplicity,
      dynamicOutputConceptRef: job.params.dynamicOutputConceptRef,
      stack: [...job.params.stack],
      stepPath: job.params.stepPath,
    },
  };
}

/** Leave a fanned-out child's latest output in its memory, as its in-process run would have. */
function applyOutcome(memory: WorkingMemory, outcome: FanOutOutcome, environment: RunEnvironment): void {
  if (outcome.kind === 'absent') memory.setAbsentMainStuff(outcome.absence);
  else if (outcome.kind === 'stuff')
    memory.setNewMainStuff(
      stuffOfSnapshot(outcome.stuff, (ref) => environment.library.resolveConcept(ref)),
      outcome.name,
    );
}

/**
 * Run a controller's children.
 * @param environment - the controller's run environment (its `deps.fanOut`, when set, runs them elsewhere)
 * @param jobs - the children, in input order, each on its own memory
 * @throws whatever the first failing child throws; the run's abort reason
 */
export async function runChildJobs(environment: RunEnvironment, jobs: readonly PipeJob[]): Promise<void> {
  const cap = environment.deps.batchConcurrency ?? DEFAULT_BATCH_CONCURRENCY;
  const fanOut = environment.deps.fanOut;
  if (!fanOut || environment.dryRun || jobs.length === 0) {
    const limit = pLimit(cap);
    await Promise.all(jobs.map((job) => limit(() => environment.runPipe(job))));
    return;
  }
  const outcomes = await fanOut.run(jobs.map(childOf), {
    cap,
    ...(environment.deps.signal ? { signal: environment.deps.signal } : {}),
    onEnded: (index, report) => {
      const job = jobs[index];
      if (job) environment.absorbChild?.(report, job.params);
    },
  });
  for (const [index, outcome] of outcomes.entries()) {
    const job = jobs[index];
    if (job) applyOutcome(job.memory, outcome, environment);
  }
}
