/**
 * Running a controller's children (the items of a batch, the branches of a PipeParallel; docs/runtime.md#pipeparallel,
 * docs/runtime.md#pipebatch): at
 * most `batchConcurrency` at once, each on its own working memory, in-process through the router, or — when the host
 * gave a fan-out port — as child jobs elsewhere (docs/fan-out.md). Either way a child's job (and its copy of the
 * memory) is made only when its turn comes, and what is kept of it is its latest output, all a controller reads back;
 * the first failure fails the whole (as `Promise.all` does) and no child starts after it. A fanned-out child's usage,
 * pipe reports, graph nodes and pipe count join the run's.
 */
import pLimit from 'p-limit';
import type { Absence } from './absence.js';
import type { FanOutChild, FanOutOutcome } from './fan-out-port.js';
import type { PipeJob, RunEnvironment } from './pipe-job.js';
import { DEFAULT_BATCH_CONCURRENCY } from './ports.js';
import type { Stuff } from './stuff.js';
import { stuffOfSnapshot } from './working-memory.js';

/** What a child left as its latest output: its main stuff, or the absence its output resolved to, or neither. */
export interface ChildOutcome {
  stuff: Stuff | undefined;
  absence: Absence | undefined;
}

/** A child job as the fan-out port carries it, with the run's pipe count as it stands. */
function childOf(job: PipeJob, environment: RunEnvironment): FanOutChild {
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
    pipes: environment.pipes.share(),
  };
}

/** A fanned-out child's outcome, as its in-process run would have left it. */
function outcomeOf(outcome: FanOutOutcome, environment: RunEnvironment): ChildOutcome {
  if (outcome.kind === 'absent') return { stuff: undefined, absence: outcome.absence };
  if (outcome.kind === 'none') return { stuff: undefined, absence: undefined };
  return {
    stuff: stuffOfSnapshot(outcome.stuff, (ref) => environment.library.resolveConcept(ref)),
    absence: undefined,
  };
}

/**
 * Run a controller's children.
 * @param environment - the controller's run environment (its `deps.fanOut`, when set, runs them elsewhere)
 * @param count - how many children
 * @param jobAt - the child at an index (from 0, input order), on its own memory; called once, when its turn comes
 * @returns each child's outcome, in input order
 * @throws whatever the first failing child throws; RunPipeBudgetExceededError when a fanned-out child's pipes take
 *   the run past its bound; the run's abort reason
 */
export async function runChildJobs(
  environment: RunEnvironment,
  count: number,
  jobAt: (index: number) => PipeJob,
): Promise<ChildOutcome[]> {
  const cap = environment.deps.batchConcurrency ?? DEFAULT_BATCH_CONCURRENCY;
  const indexes = Array.from({ length: count }, (_, index) => index);
  const fanOut = environment.deps.fanOut;
  if (!fanOut || environment.dryRun || count === 0) {
    const limit = pLimit(cap);
    let failed = false;
    return Promise.all(
      indexes.map((index) =>
        limit(async (): Promise<ChildOutcome> => {
          if (failed) throw new Error('not started: an earlier child failed');
          const job = jobAt(index);
          try {
            await environment.runPipe(job);
          } catch (error) {
            failed = true;
            throw error;
          }
          return { stuff: job.memory.mainStuff(), absence: job.memory.mainAbsence() };
        }),
      ),
    );
  }
  const params: PipeJob['params'][] = [];
  const outcomes = await fanOut.run(
    count,
    (index) => {
      const job = jobAt(index);
      params[index] = job.params;
      return childOf(job, environment);
    },
    {
      cap,
      ...(environment.deps.signal ? { signal: environment.deps.signal } : {}),
      onEnded: (index, report) => {
        const childParams = params[index];
        if (childParams) environment.absorbChild?.(report, childParams);
        environment.pipes.absorb(report.pipes);
      },
    },
  );
  return outcomes.map((outcome) => outcomeOf(outcome, environment));
}
