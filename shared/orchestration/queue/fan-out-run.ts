/**
 * The run whose children are fanned out across workers, and the deterministic job id each child takes from it
 * (docs/fan-out.md): the same run, submission and step path always name the same child job, so a retaken run finds
 * the children of its earlier attempt.
 */
import { createHash } from 'node:crypto';

/** The run whose children are fanned out. */
export interface FanOutRun {
  pipelineRunId: string;
  requestId: string;
  /** The run's job id in the run queue (its payload gives the children the bundle). */
  runJobId: string;
  /** When the run was accepted, epoch ms (with `requestId`, tells one submission of a run id from another). */
  createdAt: number;
  /**
   * An attempt after the run's first (a retry, a quarantined retake): children of an earlier attempt may exist, to
   * re-attach to, and their step checkpoints, to replay. False only when no earlier attempt of this submission ran.
   */
  retake: boolean;
}

/**
 * The deterministic job id of a child.
 * @param run - the run it belongs to
 * @param stepPath - its step path
 * @returns `<run job id>.<24 hex digits>`
 */
export function childJobId(run: FanOutRun, stepPath: string): string {
  const digest = createHash('sha256')
    .update(`${run.createdAt}\n${run.requestId}\n${stepPath}`)
    .digest('hex')
    .slice(0, 24);
  return `${run.runJobId}.${digest}`;
}
