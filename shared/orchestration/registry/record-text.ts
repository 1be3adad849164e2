/**
 * The JSON text of a run record, made once per record object: a finished record is written twice, to the registry
 * (its end, in Redis) and to `results/` (docs/storage.md#results-beyond-the-run-record), and serialising it is the
 * larger part of both writes' work in the process. A record is never changed once built (each state is a new object),
 * so the text of an object stays its text.
 */
import type { RunRecord } from './run-store.js';

const texts = new WeakMap<RunRecord, string>();

/**
 * `JSON.stringify` of a record, computed on the first call for that object and kept while the object lives.
 * @param record - a record, not changed after this call
 * @returns its JSON text
 */
export function recordText(record: RunRecord): string {
  let text = texts.get(record);
  if (text === undefined) {
    text = JSON.stringify(record);
    texts.set(record, text);
  }
  return text;
}
