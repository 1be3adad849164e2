/**
 * Absences (docs/language.md#optionality-presence-markers-and-absences): a named slot that holds no value is a recorded
 * fact with provenance — who produced
 * it, why, and which upstream absence it chains to. On the wire it is the reference's `AbsenceRecord`
 * (`shared/wire/absence-record.ts`).
 */

/**
 * How a slot came to hold no value: `declared_absent` (a producer with an optional output declared it produced nothing,
 * e.g. a PipeCondition's `continue`), `skipped` (the producer was lifted because a plain input was absent),
 * `not_provided` (the caller omitted an optional method input).
 */
export type AbsenceKind = 'declared_absent' | 'skipped' | 'not_provided';

/** One recorded absence. */
export interface Absence {
  /** The name of the slot that holds no value (`main_stuff` for the latest output). */
  variableName: string;
  kind: AbsenceKind;
  reason: string;
  /** The code of the pipe that resolved the slot absent; null for a caller's omission. */
  producingPipe: string | null;
  /** The absence this one chains to (a skip's cause), or null. */
  upstream: Absence | null;
}

/**
 * The provenance chain of an absence, outermost first, for error details: `'a' skipped (…) ← 'b' not provided (…)`.
 * @param record - an absence
 */
export function absenceChain(record: Absence): string {
  const links: string[] = [];
  for (let link: Absence | null = record; link !== null; link = link.upstream)
    links.push(
      `'${link.variableName}' ${link.kind.replace('_', ' ')}${link.producingPipe === null ? '' : ` by '${link.producingPipe}'`} (${link.reason})`,
    );
  return links.join(' ← ');
}
