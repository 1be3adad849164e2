/**
 * The diagnostics threads' answers as bytes: every operation answers the exact bytes `sendJson` would send.
 */
import { reserveHeap } from '../../shared/compute/index.js';

/** A route's 200 body as UTF-8 JSON bytes (what `sendJson` would send). */
export type EncodedJson = Uint8Array;

const encoder = new TextEncoder();

/**
 * A 200 body as the bytes `sendJson` would send. `JSON.stringify` grows its text in small parts, but encoding it
 * first copies it whole onto the heap (up to 2 bytes a character), the one allocation an answer makes at once: it is
 * reserved first, so an answer the thread's heap cannot hold stops the task with the memory limit (422), never the
 * process (docs/isolation.md).
 * @param body - any JSON value
 * @throws HeapReservationRefused (answered as the pool's memory limit) when the heap cannot hold the encoding
 */
export function encodeJson(body: unknown): EncodedJson {
  const text = JSON.stringify(body);
  reserveHeap(2 * text.length);
  return encoder.encode(text);
}
