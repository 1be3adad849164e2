/**
 * The runs the dispatch gate hands a slot (docs/fair-dispatch.md), as its scripts answer them: run id, then the
 * gate's job text, for each.
 */

/** A run taken off its owner's waiting line, to be added to the run queue. */
export interface HandedRun {
  runId: string;
  /** The gate's job text ({@link GateJob} as JSON); empty when it was lost. */
  job: string;
}

/** What the gate keeps of a waiting run: its sealed run job and its priority. */
export interface GateJob {
  /** The run job's data, sealed (docs/run-ownership.md#queue-jobs). */
  data: Record<string, unknown> & { seal: string };
  /** The run's priority (0–10). */
  priority: number;
}

/**
 * The handed runs of a script's answer.
 * @param flat - run id, job text, run id, job text, …
 */
export function handedRuns(flat: readonly string[]): HandedRun[] {
  const runs: HandedRun[] = [];
  for (let index = 0; index + 1 < flat.length; index += 2)
    runs.push({ runId: flat[index] as string, job: flat[index + 1] as string });
  return runs;
}
