/**
 * An absence on the wire: the runtime's {@link Absence} as the reference's `AbsenceRecord`, member for member
 * (`pipe_output.working_memory.absences[<name>]`, a run result's `absence`), and read back where one was kept as JSON
 * (step checkpoints, fanned-out children's payloads and results: docs/checkpoints.md, docs/fan-out.md).
 */
import type { Absence, AbsenceKind } from '../runtime/absence.js';

/** One recorded absence, as the reference's `AbsenceRecord`. */
export interface AbsenceRecord {
  variable_name: string;
  kind: AbsenceKind;
  reason: string;
  /** The code of the pipe that resolved the slot absent; null for a caller's omission. */
  producing_pipe: string | null;
  /** The absence this one chains to (a skip's cause), or null. */
  upstream: AbsenceRecord | null;
}

/**
 * The record of an absence, its chain included.
 * @param absence - the runtime's absence
 */
export function absenceRecord(absence: Absence): AbsenceRecord {
  return {
    variable_name: absence.variableName,
    kind: absence.kind,
    reason: absence.reason,
    producing_pipe: absence.producingPipe,
    upstream: absence.upstream && absenceRecord(absence.upstream),
  };
}

/**
 * The absence a kept record describes (the inverse of {@link absenceRecord}).
 * @param record - a record as kept
 */
export function absenceOf(record: AbsenceRecord): Absence {
  return {
    variableName: record.variable_name,
    kind: record.kind,
    reason: record.reason,
    producingPipe: record.producing_pipe,
    upstream: record.upstream && absenceOf(record.upstream),
  };
}
