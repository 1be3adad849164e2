/**
 * The opaque cursors of the control plane's pages (the methods catalog, docs/api.md#methods-catalog; the run history,
 * docs/api.md#run-history): base64url of a small JSON array naming the last row of the page before and which list it
 * belongs to, so the next page starts strictly after it (keyset paging, stable while rows are added).
 */
import { ValidationError } from '../errors/index.js';

/** Where a page of a newest-first list starts: after this row. */
export interface RowPosition {
  readonly createdAt: Date;
  readonly id: string;
}

/** The lists whose pages are ordered by creation, newest first, and the tag of each one's cursors. */
const LIST_TAGS = { methods: 'm', runs: 'r' } as const;

/** A list ordered by creation, newest first. */
export type NewestFirstList = keyof typeof LIST_TAGS;

function encode(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

function decode(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function refused(): ValidationError {
  return new ValidationError('query.cursor: not a cursor of this list; pass next_cursor as it was answered');
}

/**
 * The cursor after a row of a page.
 * @param list - the list the page belongs to
 * @param position - the page's last row: its creation time and id
 */
export function rowCursor(list: NewestFirstList, position: RowPosition): string {
  return encode([LIST_TAGS[list], position.createdAt.toISOString(), position.id]);
}

/**
 * The position a row cursor names.
 * @param list - the list being paged
 * @param cursor - a `next_cursor` of a page of that list
 * @throws ValidationError (422) for anything else (another list's cursor included)
 */
export function rowPosition(list: NewestFirstList, cursor: string): RowPosition {
  const value = decode(cursor);
  if (Array.isArray(value) && value.length === 3 && value[0] === LIST_TAGS[list]) {
    const [, time, id] = value as unknown[];
    const createdAt = typeof time === 'string' ? new Date(time) : new Date(Number.NaN);
    if (typeof id === 'string' && !Number.isNaN(createdAt.getTime())) return { createdAt, id };
  }
  throw refused();
}

/**
 * The cursor after a version of a page of versions.
 * @param version - the page's last (lowest) version number
 */
export function versionCursor(version: number): string {
  return encode(['v', version]);
}

/**
 * The version number a versions cursor names.
 * @param cursor - a `next_cursor` of a versions page
 * @throws ValidationError (422) for anything else
 */
export function versionPosition(cursor: string): number {
  const value = decode(cursor);
  if (Array.isArray(value) && value.length === 2 && value[0] === 'v' && Number.isSafeInteger(value[1]))
    return value[1] as number;
  throw refused();
}
