/**
 * Running one fanned-out child (docs/fan-out.md), in the process that took its child job: the branch pipe on the
 * working memory its controller gave it, through the router as any pipe of a run, with its own usage recorder, pipe
 * reports and graph, and its pipes counted on from the run's count it carries, against the run's bound — all handed
 * back to the parent run with the child's latest output. Its nested controllers run in this process: only the run's
 * own pipes fan out.
 */
import type { Library } from '../mthds/index.js';
import { validatorFor } from './content-validator.js';
import type { FanOutChild, FanOutOutcome, FanOutReport } from './fan-out-port.js';
import { GraphRecorder } from './graph-recorder.js';
import { PipeBudget } from './pipe-budget.js';
import type { PipeJob, RunEnvironment } from './pipe-job.js';
import { PipeProgressRecorder } from './pipe-progress.js';
import { routePipe } from './pipe-router.js';
import type { RuntimeDeps } from './ports.js';
import type { PipeProgress } from './run-observer.js';
import { DEFAULT_PIPE_STACK_LIMIT } from './run-pipeline.js';
import { runSignal } from './run-signal.js';
import { StepCheckpointing } from './step-checkpoints.js';
import { recordUsage } from './usage-recorder.js';
import { WorkingMemory } from './working-memory.js';

/** How a child's run ended: its latest output, or what it threw; with its usage, reports and graph either way. */
export type ChildRunResult =
  | { ok: true; outcome: FanOutOutcome; report: FanOutReport }
  | { ok: false; error: unknown; report: FanOutReport };

/** A memory's latest output, as the parent reads it back. */
function outcomeOf(memory: WorkingMemory): FanOutOutcome {
  const absence = memory.mainAbsence();
  if (absence) return { kind: 'absent', absence };
  const main = memory.mainStuff();
  if (!main) return { kind: 'none' };
  const name = memory.mainStuffName();
  return {
    kind: 'stuff',
    name: name === 'main_stuff' ? null : name,
    stuff: { ...main, content: structuredClone(main.content) },
  };
}

/**
 * Run a child.
 * @param library - the run's library (the child's pipe and its memory's concepts resolve in it)
 * @param child - the pipe ref, memory snapshot, output name, params and run's pipe count its controller gave it
 * @param deps - the runtime's ports in this process (its `fanOut` and `observer` are not used; its `checkpoints`,
 *   when given, replay and checkpoint the child's operators under the child's step path)
 * @returns its outcome or error (RunPipeBudgetExceededError past the run's pipe bound), with its usage, pipe reports,
 *   graph and the pipes it started; never throws for a pipe failure
 * @throws PipeNotFoundError when the pipe ref names no pipe of the library
 */
export async function runChildPipeline(
  library: Library,
  child: FanOutChild,
  deps: RuntimeDeps,
): Promise<ChildRunResult> {
  const pipe = library.resolvePipe(child.pipeRef);
  const { fanOut: _fanOut, observer: _observer, ...local } = deps;
  const usage = recordUsage(deps.inference, deps.now);
  const checkpoints = deps.checkpoints ? new StepCheckpointing(deps.checkpoints, usage) : undefined;
  const reports: PipeProgress[] = [];
  const graph = new GraphRecorder();
  const pipes = PipeBudget.live(child.pipes);
  const environment: RunEnvironment = {
    library,
    validator: validatorFor(library),
    deps: { ...local, ...(deps.signal ? { signal: runSignal(deps.signal) } : {}), inference: usage.inference },
    stackLimit: DEFAULT_PIPE_STACK_LIMIT,
    pipes,
    graph,
    ...(checkpoints ? { checkpoints } : {}),
    progress: new PipeProgressRecorder({ pipeProgress: (progress) => reports.push(progress) }, deps.now, usage.summary),
    runPipe: (job: PipeJob) => routePipe(job, environment),
  };
  const memory = WorkingMemory.fromSnapshot(child.memory, (ref) => library.resolveConcept(ref));
  const report = (): FanOutReport => ({
    usage: usage.calls,
    progress: reports,
    graph: graph.fragment(),
    pipes: pipes.counted,
  });
  try {
    await environment.runPipe({ pipe, memory, outputName: child.outputName, params: { ...child.params } });
    return { ok: true, outcome: outcomeOf(memory), report: report() };
  } catch (error) {
    return { ok: false, error, report: report() };
  } finally {
    await checkpoints?.settled();
  }
}
