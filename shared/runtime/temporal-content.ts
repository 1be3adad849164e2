/**
 * The content of the natives `Date` (`{date: "YYYY-MM-DD", time?: "HH:MM:SS[±hh:mm]"}`) and `Time`
 * (`{time: "HH:MM:SS[±hh:mm]"}`) made from an ISO 8601 text, the JSON form of a TOML date, date-time or time literal
 * (docs/concepts.md#native-concepts): a local date `2025-01-06`; a date-time `2025-01-06T09:30:00`, `…T09:30:00.250Z`
 * or
 * `… 09:30:00+02:00` (`Z` becomes `+00:00`, fractions of a second are dropped); a time `09:30`, `09:30:00` or
 * `09:30:00+02:00` (missing seconds become `:00`). Calendar dates are checked (`2025-02-30` is refused).
 */
import formats from 'ajv-formats/dist/formats.js';
import type { ItemContent } from './stuff.js';

const DATE_FORMAT = formats.fullFormats.date as { validate: (text: string) => boolean };
const TIME_TEXT = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d+)?)?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/i;

/** A real calendar date `YYYY-MM-DD` (leap years included): ajv-formats' RFC 3339 `full-date` check. */
function isCalendarDate(text: string): boolean {
  return DATE_FORMAT.validate(text);
}

function normalTime(text: string): string | undefined {
  const match = TIME_TEXT.exec(text);
  if (!match) return undefined;
  const offset = match[4] === undefined ? '' : match[4].toUpperCase() === 'Z' ? '+00:00' : match[4];
  return `${match[1]}:${match[2]}:${match[3] ?? '00'}${offset}`;
}

/**
 * A native Date's content from an ISO date or date-time text.
 * @param text - `YYYY-MM-DD`, optionally followed by `T` (or a space) and a time
 * @returns `{date}` or `{date, time}`, or undefined when the text is not a valid date or date-time
 */
export function dateContentOf(text: string): ItemContent | undefined {
  const [datePart, timePart, ...rest] = text.trim().split(/[Tt ]/);
  if (datePart === undefined || rest.length > 0 || !isCalendarDate(datePart)) return undefined;
  if (timePart === undefined) return { date: datePart };
  const time = normalTime(timePart);
  return time === undefined ? undefined : { date: datePart, time };
}

/**
 * A native Time's content from an ISO time text.
 * @param text - `HH:MM[:SS[.fff]][Z|±hh:mm]`
 * @returns `{time}`, or undefined when the text is not a valid time
 */
export function timeContentOf(text: string): ItemContent | undefined {
  const time = normalTime(text.trim());
  return time === undefined ? undefined : { time };
}

/**
 * The content of a temporal native from a text, by the native's code.
 * @param nativeCode - `Date` or `Time` (any other code gives undefined)
 * @param text - an ISO 8601 date, date-time or time
 * @returns the native's content, or undefined when the code is not temporal or the text does not fit it
 */
export function temporalContentOf(nativeCode: string | null, text: string): ItemContent | undefined {
  if (nativeCode === 'Date') return dateContentOf(text);
  if (nativeCode === 'Time') return timeContentOf(text);
  return undefined;
}
