/**
 * The opaque cursors of the catalog's pages (docs/api.md#methods-catalog): base64url of a small JSON array naming the
 * last row of the page before, so the next page starts strictly after it (keyset paging, stable while rows are added).
 */
import { ValidationError } from '../errors/index.js';

/** Where a page of methods starts: after this method, newest first. */
export interface MethodPosition {
  readonly createdAt: Date;
  readonly id: string;
}

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
 * The cursor after a method of a page.
 * @param position - the page's last method
 */
export function methodCursor(position: MethodPosition): string {
  return encode(['m', position.createdAt.toISOString(), position.id]);
}

/**
 * The position a method cursor names.
 * @param cursor - a `next_cursor` of a methods page
 * @throws ValidationError (422) for anything else
 */
export function methodPosition(cursor: string): MethodPosition {
  const value = decode(cursor);
  if (Array.isArray(value) && value.length === 3 && value[0] === 'm') {
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
