/**
 * The step checkpoint store port and what it keeps (docs/checkpoints.md; the runtime's use of it is
 * step-checkpoints.ts). Checkpoints are plain JSON: they cross processes and outlive the attempt that made them.
 */
import type { Absence } from './absence.js';
import type { StuffContent } from './stuff.js';
import type { InferenceCall } from './usage-report.js';

/**
 * What a finished step left as its job's latest output: a stuff (its code, name, concept ref and content, plain JSON),
 * or a recorded absence.
 */
export type StepOutcome =
  | { kind: 'stuff'; stuff_code: string; stuff_name: string | null; concept_ref: string; content: StuffContent }
  | { kind: 'absent'; absence: Absence };

/** The durable record of one finished step (plain JSON: it crosses processes). */
export interface StepCheckpoint {
  /** The code of the pipe that ran at the step path. */
  pipe_code: string;
  /** SHA-256 (hex) of what the step read: its declared inputs (content or absence) and its run parameters. */
  inputs_digest: string;
  outcome: StepOutcome;
  /** The inference calls the step made, in call order (empty for a step that made none). */
  usage: InferenceCall[];
}

/**
 * The checkpoint store port: where the checkpoints of one run (one submission) are kept, by step path. Implementations
 * never throw: a store that fails answers no checkpoint, and a checkpoint it could not keep is lost (its step runs
 * again on a retake). A store may also decline to keep a checkpoint (one too large).
 */
export interface StepCheckpointStore {
  /**
   * The checkpoint of a step, if one was kept.
   * @param stepPath - the step's path (`main/s2/b11`)
   */
  load(stepPath: string): Promise<StepCheckpoint | undefined>;
  /**
   * Keep a step's checkpoint, replacing any earlier one of the path. The run does not wait for it before its next
   * step, only before it ends.
   * @param stepPath - the step's path
   * @param checkpoint - what it finished with
   */
  save(stepPath: string, checkpoint: StepCheckpoint): Promise<void>;
}
