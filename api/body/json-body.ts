/**
 * JSON bodies the event loop needs as values (the run routes): read off the socket, then decoded on the event loop
 * when small and in a diagnostics thread when large, so that no body holds the loop (docs/isolation.md "Request
 * bodies"; spec §8).
 */
import type { RequestHandler } from 'express';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import { type BodyKind, decodeJsonBody } from './decode-json.js';
import type { JsonLimits } from './json-scan.js';
import { rawBodyOf, readBody } from './read-body.js';

/**
 * Largest body decoded on the event loop, in bytes: 256 KiB scan and parse in about a millisecond; a larger body is
 * decoded in a diagnostics thread and its value cloned back.
 */
const INLINE_DECODE_MAX_BYTES = 256 * 1024;

/**
 * The buffer behind a body's bytes when they are all of it (the read body is one fresh buffer), so that it moves to
 * the decoding thread instead of being copied there: a copy of a 100 MiB body held the event loop for about 80 ms.
 * @returns the buffer to transfer, or undefined when the bytes share theirs
 */
function wholeBuffer(bytes: Uint8Array): ArrayBuffer[] | undefined {
  const { buffer } = bytes;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength
    ? [buffer]
    : undefined;
}

/** The limits of a JSON body: its size, its nesting depth (`MAX_JSON_DEPTH`) and its values (`MAX_JSON_VALUES`). */
export interface JsonBodyLimits extends JsonLimits {
  /** Largest body, in bytes (`MAX_REQUEST_BODY_MIB` × 1 MiB). */
  maxBodyBytes: number;
}

/**
 * Build the reader and decoder; `req.body` becomes the decoded value (undefined when the request has none).
 * @param limits - body size in bytes, nesting depth and number of values
 * @param kind - which error class a malformed, too deep or too large body maps to
 * @param diagnostics - where a body over {@link INLINE_DECODE_MAX_BYTES} is decoded
 * @throws PayloadTooLarge (413); InvalidJSON or ValidationError (422) through `next`, for a malformed body, for one
 *   nested deeper than `limits.maxJsonDepth` (detail `JSON nesting depth exceeds 64 (MAX_JSON_DEPTH)`) and for one
 *   holding more than `limits.maxJsonValues` values (`MAX_JSON_VALUES`), both refused before any parse;
 *   ValidationError (422) for a string holding a lone UTF-16 surrogate, naming its path; ServerBusyError (503) when a
 *   large body finds the diagnostics pool full
 * @see spec §8, docs/limits.md
 */
export function jsonBody(limits: JsonBodyLimits, kind: BodyKind, diagnostics: DiagnosticsPool): RequestHandler {
  const read = readBody(limits.maxBodyBytes, kind);
  const jsonLimits: JsonLimits = { maxJsonDepth: limits.maxJsonDepth, maxJsonValues: limits.maxJsonValues };
  return (req, res, next) => {
    read(req, res, (error?: unknown) => {
      if (error !== undefined) {
        next(error);
        return;
      }
      const raw = rawBodyOf(req.body);
      const decoded =
        raw === undefined || raw.bytes.byteLength <= INLINE_DECODE_MAX_BYTES
          ? Promise.resolve().then(() => decodeJsonBody(raw, jsonLimits, kind))
          : diagnostics.run('decodeJson', { body: raw, limits: jsonLimits, kind }, undefined, wholeBuffer(raw.bytes));
      decoded.then((value) => {
        req.body = value;
        next();
      }, next);
    });
  };
}
