/**
 * The presence gate every pipe passes before it runs (docs/language.md#optionality-presence-markers-and-absences): for
 * each declared
 * input whose value is a recorded absence, a `!` input fails the run (OptionalValueAbsentError, with provenance), a
 * plain input lifts the pipe (it does not run; its output is recorded `skipped`, or is `[]` with a `skipped` note when
 * plural), and a `?`
 * input lets it run with the value undefined.
 */
import { OptionalValueAbsentError } from '../errors/index.js';
import { type Absence, absenceChain } from './absence.js';
import { resolveMultiplicity } from './multiplicity.js';
import { outputConceptOf } from './output-concept.js';
import type { PipeJob, RunEnvironment } from './pipe-job.js';
import { storePipeOutput } from './pipe-output.js';

/** The name an absent output is recorded under: the job's output name, else `main_stuff`. */
const MAIN_STUFF = 'main_stuff';

/** A declared input whose value is absent. */
interface AbsentInput {
  name: string;
  record: Absence;
}

function absentInputs(job: PipeJob, presence: 'plain' | 'force'): AbsentInput[] {
  return job.pipe.inputs.flatMap((input) => {
    if (input.presence !== presence) return [];
    const record = job.memory.absence(input.name.split('.')[0] ?? input.name);
    return record === undefined ? [] : [{ name: input.name, record }];
  });
}

/**
 * Lift (skip) a job: record its output as a `skipped` absence chained to the first absent input, or, when its output is
 * plural (a list is never absent), store `[]` with that record kept as a note in the absence ledger. When the run
 * records a graph, the job's own node (the router hands the
 * job its node as `params.parentNode`, the parent of the pipes it would run) is marked `skipped` with its reason.
 */
function lift(job: PipeJob, environment: RunEnvironment, absent: AbsentInput[]): void {
  const names = absent.map((input) => `'${input.name}'`).join(', ');
  const inputs = `input${absent.length === 1 ? '' : 's'} ${names} ${absent.length === 1 ? 'is' : 'are'} absent`;
  const node = job.params.parentNode;
  if (environment.graph && node !== undefined) environment.graph.skip(node, `skipped because ${inputs}`);
  const record: Absence = {
    variableName: job.outputName ?? MAIN_STUFF,
    kind: 'skipped',
    reason: `pipe '${job.pipe.code}' was skipped: its ${inputs}`,
    producingPipe: job.pipe.code,
    upstream: absent[0]!.record,
  };
  const multiplicity = resolveMultiplicity(job.pipe.output.multiplicity, job.params.outputMultiplicity);
  if (multiplicity === 'variable' || (typeof multiplicity === 'number' && multiplicity > 1)) {
    storePipeOutput(job, environment, outputConceptOf(job, environment.library), { kind: 'list', items: [] });
    job.memory.noteAbsence(record);
    return;
  }
  job.memory.setAbsentMainStuff(record);
}

/**
 * Gate a job on the presence of its inputs.
 * @param job - the job about to run
 * @param environment - the run's environment
 * @returns true when the pipe should run, false when it was lifted (its output already resolved)
 * @throws OptionalValueAbsentError when a `!` input is absent
 */
export function passPresenceGate(job: PipeJob, environment: RunEnvironment): boolean {
  const forced = absentInputs(job, 'force')[0];
  if (forced)
    throw new OptionalValueAbsentError(
      `Pipe '${job.pipe.code}': the force-marked input '${forced.name}' is absent: ${absenceChain(forced.record)}.`,
    );
  const plain = absentInputs(job, 'plain');
  if (plain.length === 0) return true;
  lift(job, environment, plain);
  return false;
}
