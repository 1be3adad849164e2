/**
 * JSON bodies the event loop needs as values (the run routes): read off the socket, then decoded on the event loop
 * when small and in a diagnostics thread when large, so that no body holds the loop (docs/isolation.md "Request
 * bodies"; spec §8).
 */
import type { RequestHandler } from 'express';
import type { DiagnosticsPool } from '../offload/diagnostics-pool.js';
import { type BodyKind, decodeJsonBody } from './decode-json.js';
import { rawBodyOf, readBody } from './read-body.js';

/**
 * Largest body decoded on the event loop, in bytes: 256 KiB scan and parse in about a millisecond; a larger body is
 * decoded in a diagnostics thread and its value cloned back.
 */
const INLINE_DECODE_MAX_BYTES = 256 * 1024;

/** The limits of a JSON body. */
export interface JsonBodyLimits {
  /** Largest body, in bytes (`MAX_REQUEST_BODY_MIB` × 1 MiB). */
  maxBodyBytes: number;
  /** Deepest nesting of arrays and objects (`MAX_JSON_DEPTH`); `{}` is depth 1. */
  maxJsonDepth: number;
}

/**
 * Build the reader and decoder; `req.body` becomes the decoded value (undefined when the request has none).
 * @param limits - body size in bytes and nesting depth
 * @param kind - which error class a malformed or too deep body maps to
 * @param diagnostics - where a body over {@link INLINE_DECODE_MAX_BYTES} is decoded
 * @throws PayloadTooLarge (413); InvalidJSON or ValidationError (422) through `next`, for a malformed body and for one
 *   nested deeper than `limits.maxJsonDepth` (detail `JSON nesting depth exceeds 64 (MAX_JSON_DEPTH)`);
 *   ServerBusyError (503) when a large body finds the diagnostics pool full
 * @see spec §8, docs/limits.md
 */
export function jsonBody(limits: JsonBodyLimits, kind: BodyKind, diagnostics: DiagnosticsPool): RequestHandler {
  const read = readBody(limits.maxBodyBytes, kind);
  return (req, res, next) => {
    read(req, res, (error?: unknown) => {
      if (error !== undefined) {
        next(error);
        return;
      }
      const raw = rawBodyOf(req.body);
      const decoded =
        raw === undefined || raw.bytes.byteLength <= INLINE_DECODE_MAX_BYTES
          ? Promise.resolve().then(() => decodeJsonBody(raw, limits.maxJsonDepth, kind))
          : diagnostics.run('decodeJson', { body: raw, maxJsonDepth: limits.maxJsonDepth, kind });
      decoded.then((value) => {
        req.body = value;
        next();
      }, next);
    });
  };
}
