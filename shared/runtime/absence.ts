/**
 * Absences (LANGUAGE-DELTA.md §6): a named slot that holds no value is a recorded fact with provenance — who produced
 * it, why, and which upstream absence it chains to. The reference's `AbsenceRecord`, member for member.
 */

/**
 * How a slot came to hold no value: `declared_absent` (a producer with an optional output declared it produced nothing,
 * e.g. a PipeCondition's `continue`), `skipped` (the producer was lifted because a plain input was absent),
 * `not_provided` (the caller omitted an optional method input).
 */
export type AbsenceKind = 'declared_absent' | 'skipped' | 'not_provided';

/** One recorded absence (`pipe_output.working_memory.absences[<name>]` on the wire). */
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
 * The provenance chain of an absence, outermost first, for error details: `'a' skipped (…) ← 'b' not provided (…)`.
 * @param record - an absence
 */
export function absenceChain(record: AbsenceRecord): string {
  const links: string[] = [];
  for (let link: AbsenceRecord | null = record; link !== null; link = link.upstream)
    links.push(
      `'${link.variable_name}' ${link.kind.replace('_', ' ')}${link.producing_pipe === null ? '' : ` by '${link.producing_pipe}'`} (${link.reason})`,
    );
  return links.join(' ← ');
}
