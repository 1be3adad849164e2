/**
 * Step checkpoints (docs/checkpoints.md): each operator a run finishes records its outcome, keyed by its step path
 * (step-path.ts), in the store its host gives ({@link StepCheckpointStore}); an attempt that finds a step's checkpoint
 * restores the outcome into the job's working memory instead of running the operator, so a retaken run makes no
 * inference call for a step an earlier attempt finished. Controllers are not checkpointed: they run again (their logic
 * is deterministic and makes no call) and reach their checkpointed operators.
 *
 * A checkpoint replays only where it was made: the same pipe, at the same step path, reading the same inputs (a digest
 * of its declared inputs' contents and its run parameters); otherwise the operator runs again and its checkpoint is
 * replaced. The host binds a store to one submission (its fingerprint), so another bundle or other inputs never replay.
 * A replayed step's inference calls join the run's usage summary and their cost counts against the run's budget.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { PipeType } from '../mthds/index.js';
import type { PipeJob, PipeRunner, RunEnvironment, StepReplayer } from './pipe-job.js';
import type { StepCheckpointStore, StepOutcome } from './step-checkpoint-store.js';
import { type UsageRecorder, usageRecordingPort } from './usage-recorder.js';
import type { InferenceCall } from './usage-report.js';

/** The pipe types whose runs are checkpointed: the operators (a controller runs again on a retake). */
const CHECKPOINTED: ReadonlySet<PipeType> = new Set<PipeType>([
  'PipeLLM',
  'PipeCompose',
  'PipeExtract',
  'PipeFunc',
  'PipeImgGen',
  'PipeSearch',
  'PipeStructure',
  'PipeJudge',
  'PipeDocGen',
]);

/** What a job reads, as the digest covers it: references to its inputs' stuffs, taken before it runs. */
interface StepRead {
  pipe: string;
  output_name: string | null;
  output_multiplicity: unknown;
  dynamic_output_concept_ref: unknown;
  inputs: unknown[];
}

/**
 * What a job reads: each declared input's root stuff (concept ref and content) or recorded absence, the output name
 * and the run parameters that shape the output. A stuff's content is never changed once made, so the references stay
 * what the job read.
 * @param job - the job about to run
 */
function stepRead(job: PipeJob): StepRead {
  const inputs = job.pipe.inputs.map((input) => {
    const root = input.name.split('.')[0] ?? input.name;
    const stuff = job.memory.find(root);
    if (stuff) return [root, stuff.concept.ref, stuff.content];
    const absence = job.memory.absence(root);
    return [root, absence ? { absent: absence.kind } : null];
  });
  return {
    pipe: job.pipe.code,
    output_name: job.outputName,
    output_multiplicity: job.params.outputMultiplicity,
    dynamic_output_concept_ref: job.params.dynamicOutputConceptRef,
    inputs,
  };
}

/**
 * The digest of what a job read.
 * @param read - {@link stepRead} of the job
 * @returns SHA-256, hex
 */
function readDigest(read: StepRead): string {
  return createHash('sha256')
    .update(canonicalize(read) ?? '')
    .digest('hex');
}

function costOf(calls: readonly InferenceCall[]): number {
  return calls.reduce((sum, call) => sum + (call.costUsd ?? 0), 0);
}

/**
 * The checkpointing of one run attempt: replays operators from their checkpoints, runs and checkpoints the others, and
 * keeps the count and cost of what it replayed.
 */
export class StepCheckpointing implements StepReplayer {
  private replayedCost = 0;
  private replayedSteps = 0;
  /** The saves under way: the run goes on while a checkpoint is being kept. */
  private readonly saves = new Set<Promise<void>>();

  /**
   * @param store - the run's checkpoint store
   * @param usage - the run's usage recorder (a replayed step's calls join it)
   */
  constructor(
    private readonly store: StepCheckpointStore,
    private readonly usage: UsageRecorder,
  ) {}

  /** USD of the priced calls of the steps replayed so far (made by earlier attempts). */
  get replayedCostUsd(): number {
    return this.replayedCost;
  }

  /** Steps replayed so far. */
  get replayedStepCount(): number {
    return this.replayedSteps;
  }

  /**
   * Whether a job's pipe is checkpointed (an operator).
   * @param job - the job
   */
  covers(job: PipeJob): boolean {
    return CHECKPOINTED.has(job.pipe.type);
  }

  /**
   * Run an operator job: from its checkpoint when one matches (no call is made), else with its runner, then keep its
   * checkpoint.
   * @param job - the job (its stack already pushed)
   * @param environment - the run's environment
   * @param runner - the operator's runner
   * @returns true when the step was replayed from its checkpoint
   * @throws whatever the runner throws (no checkpoint is kept then)
   */
  async run(job: PipeJob, environment: RunEnvironment, runner: PipeRunner): Promise<boolean> {
    const stepPath = job.params.stepPath;
    // hashed when first compared or written: a save held behind and dropped with the run's end (docs/checkpoints.md)
    // costs no digest
    const read = stepRead(job);
    let digest: string | undefined;
    const digestOfRead = () => {
      digest ??= readDigest(read);
      return digest;
    };
    const checkpoint = await this.store.load(stepPath);
    if (
      checkpoint?.pipe_code === job.pipe.code &&
      checkpoint.inputs_digest === digestOfRead() &&
      this.restore(job, environment, checkpoint.outcome)
    ) {
      this.usage.absorb(checkpoint.usage);
      this.replayedCost += costOf(checkpoint.usage);
      this.replayedSteps += 1;
      return true;
    }
    const calls: InferenceCall[] = [];
    const inference = usageRecordingPort(environment.deps.inference, environment.deps.now, (call) => calls.push(call));
    const before = job.memory.mainOutcome();
    await runner(job, { ...environment, deps: { ...environment.deps, inference } });
    const outcome = outcomeOf(job, before);
    if (outcome) {
      // not awaited: the next step need not wait for this one's checkpoint (a store never throws); the run waits for
      // every save before it ends (settled)
      const saving = this.store.save(stepPath, {
        pipe_code: job.pipe.code,
        get inputs_digest() {
          return digestOfRead();
        },
        outcome,
        usage: calls,
      });
      this.saves.add(saving);
      void saving.then(() => this.saves.delete(saving));
    }
    return false;
  }

  /**
   * Wait for the checkpoints being kept, so none is still being written when the run ends (a retry reads them).
   * @returns once every save started so far has ended (kept or lost: a store never throws)
   */
  async settled(): Promise<void> {
    await Promise.all(this.saves);
  }

  /** Put a checkpoint's outcome in the job's memory; false when its concept is not in the run's library. */
  private restore(job: PipeJob, environment: RunEnvironment, outcome: StepOutcome): boolean {
    if (outcome.kind === 'absent') {
      job.memory.setAbsentMainStuff(outcome.absence);
      return true;
    }
    const concept = environment.library.findConcept(outcome.concept_ref);
    if (concept?.ref !== outcome.concept_ref) return false;
    job.memory.setNewMainStuff(
      {
        stuffCode: outcome.stuff_code,
        stuffName: outcome.stuff_name,
        concept,
        content: structuredClone(outcome.content),
      },
      job.outputName,
    );
    return true;
  }
}

/** What a job's run left as its latest output, when it changed it. */
function outcomeOf(job: PipeJob, before: ReturnType<PipeJob['memory']['mainOutcome']>): StepOutcome | undefined {
  const after = job.memory.mainOutcome();
  if (after === undefined || after === before) return undefined;
  const absence = job.memory.mainAbsence();
  if (absence) return { kind: 'absent', absence };
  const stuff = job.memory.mainStuff()!;
  return {
    kind: 'stuff',
    stuff_code: stuff.stuffCode,
    stuff_name: stuff.stuffName,
    concept_ref: stuff.concept.ref,
    content: stuff.content,
  };
}
