/**
 * The pipe router: every pipe, operator or controller, runs through it (docs/runtime.md): count it against the run's
 * pipe bound (pipe-budget.ts), push the stack (recursion guard), gate on the presence of its inputs (a plain input
 * recorded absent lifts the pipe, a `!` one fails it: docs/language.md), check the declared inputs are present,
 * dispatch on the pipe type, pop.
 *
 * Each pipe starts on a turn of the event loop of its own (docs/isolation.md#runs): most steps do no I/O of their
 * own (a straight-line template renders on the calling thread, mock inference answers at once), so without that a
 * long sequence, batch or recursion would run as one chain of microtasks and hold the loop from its first step to its
 * last — `/health`, other requests, a client's disconnect and the run's own abort would all wait for it.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  PipeFeatureNotSupportedError,
  PipeSignatureNotExecutableError,
  PipeStackOverflowError,
} from '../errors/index.js';
import type { PipeType } from '../mthds/index.js';
import { runPipeBatch } from './controllers/pipe-batch.js';
import { runPipeCondition } from './controllers/pipe-condition.js';
import { runPipeParallel } from './controllers/pipe-parallel.js';
import { runPipeSequence } from './controllers/pipe-sequence.js';
import type { FanOutReport } from './fan-out-port.js';
import { asGraphNode, nodeInputs, nodeOutputs } from './graph-node.js';
import { graphPipeOf } from './graph-registries.js';
import { mintMockOutput } from './mock-output.js';
import { runPipeCompose } from './operators/pipe-compose.js';
import { runPipeDocGen } from './operators/pipe-doc-gen.js';
import { runPipeExtract } from './operators/pipe-extract.js';
import { runPipeFunc } from './operators/pipe-func.js';
import { runPipeImgGen } from './operators/pipe-img-gen.js';
import { runPipeJudge } from './operators/pipe-judge.js';
import { runPipeLLM } from './operators/pipe-llm.js';
import { runPipeSearch } from './operators/pipe-search.js';
import { runPipeStructure } from './operators/pipe-structure.js';
import type { PipeJob, PipeRunner, RunEnvironment, RunParams } from './pipe-job.js';
import { passPresenceGate } from './presence-gate.js';
import { checkInputsPresent } from './run-inputs.js';

/** The runners this runtime has, by pipe type. */
const RUNNERS: Partial<Record<PipeType, PipeRunner>> = {
  PipeLLM: runPipeLLM,
  PipeCompose: runPipeCompose,
  PipeExtract: runPipeExtract,
  PipeFunc: runPipeFunc,
  PipeImgGen: runPipeImgGen,
  PipeSearch: runPipeSearch,
  PipeStructure: runPipeStructure,
  PipeJudge: runPipeJudge,
  PipeDocGen: runPipeDocGen,
  PipeSequence: runPipeSequence,
  PipeParallel: runPipeParallel,
  PipeCondition: runPipeCondition,
  PipeBatch: runPipeBatch,
};

/**
 * Run one job through the router.
 * @param job - the pipe, memory, output name and params
 * @param environment - the run's environment (its `runPipe` is this function bound to it)
 * In a dry run a contract-only pipe (PipeSignature) mints a mock of its declared output instead of failing. When the
 * environment records a graph, each run is a node whose children are the pipes it runs. When it reports progress,
 * each run is a step whose nested pipes run in an environment that counts their tokens into it (pipe-progress.ts).
 * When the run keeps step checkpoints, an operator an earlier attempt finished is restored from its checkpoint instead
 * of running (step-checkpoints.ts); its progress step says it was replayed.
 * @throws RunPipeBudgetExceededError (422; ComputeBudgetExceededError in a dry run) when the run has started as many
 *   pipes as it may, PipeStackOverflowError, OptionalValueAbsentError, PipeInputError (422),
 *   PipeSignatureNotExecutableError (422), PipeFeatureNotSupportedError (501), and whatever the pipe throws
 */
export async function routePipe(job: PipeJob, environment: RunEnvironment): Promise<void> {
  environment.pipes.start();
  const progress = environment.progress;
  if (!progress) {
    await routeGraphed(job, environment);
    return;
  }
  const span = progress.start(job.pipe, job.params.parentStep, environment.deps.inference);
  // no leading spread that adds members (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
  const spanned: RunEnvironment = Object.assign({}, environment, {
    deps: { ...environment.deps, inference: span.inference },
    runPipe: (child: PipeJob) => routePipe(child, spanned),
    absorbChild: (report: FanOutReport, params: RunParams) => {
      for (const call of report.usage) span.count({ inputTokens: call.inputTokens, outputTokens: call.outputTokens });
      environment.absorbChild?.(report, params);
    },
  });
  let replayed: boolean;
  try {
    replayed = await span.within(() =>
      routeGraphed({ ...job, params: Object.assign({}, job.params, { parentStep: span.step }) }, spanned),
    );
  } catch (error) {
    span.fail(error);
    throw error;
  }
  span.finish(replayed);
}

/** Run a job as a graph node when a graph is recorded; true when it was replayed from its checkpoint. */
async function routeGraphed(job: PipeJob, environment: RunEnvironment): Promise<boolean> {
  if (!environment.graph) return runRouted(job, environment);
  const mainBefore = job.memory.mainStuff();
  let replayed = false;
  await asGraphNode(
    environment,
    {
      pipe: graphPipeOf(job.pipe),
      parent: job.params.parentNode,
      inputs: () => nodeInputs(job),
      outputs: () => nodeOutputs(job, mainBefore),
    },
    async (node) => {
      replayed = await runRouted(
        node === undefined ? job : { ...job, params: Object.assign({}, job.params, { parentNode: node }) },
        environment,
      );
    },
  );
  return replayed;
}

/** Run a job: guard, gate, then its runner or its checkpoint; true when it was replayed from its checkpoint. */
async function runRouted(job: PipeJob, environment: RunEnvironment): Promise<boolean> {
  await nextTurn();
  const stack = [...job.params.stack, job.pipe.code];
  if (stack.length > environment.stackLimit) {
    throw new PipeStackOverflowError(`Pipe stack limit ${environment.stackLimit} exceeded: ${stack.join(' → ')}.`);
  }
  if (job.pipe.type === 'PipeSignature') {
    if (environment.dryRun) {
      mintMockOutput({ ...job, params: { ...job.params, stack } }, { ...environment, dryRun: environment.dryRun });
      return false;
    }
    throw new PipeSignatureNotExecutableError(
      `Pipe '${job.pipe.code}' is a signature (contract only) and cannot run; implement it with a pipe type first.`,
    );
  }
  const runner = RUNNERS[job.pipe.type];
  if (!runner)
    throw new PipeFeatureNotSupportedError(
      `Pipe '${job.pipe.code}' is a ${job.pipe.type}, which this runner cannot execute yet.`,
    );
  if (!passPresenceGate(job, environment)) return false;
  checkInputsPresent(job.pipe, job.memory);
  environment.deps.signal?.throwIfAborted();
  const pushed: PipeJob = { ...job, params: { ...job.params, stack } };
  const { checkpoints } = environment;
  if (checkpoints?.covers(pushed)) return checkpoints.run(pushed, environment, runner);
  await runner(pushed, environment);
  return false;
}
