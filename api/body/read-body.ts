/**
 * Reading a request body off the socket, undecoded: its media type checked (415), `Content-Encoding` undone, the size
 * capped (413), the charset noted. Reading is I/O, so it never holds the event loop; decoding is left to
 * {@link decodeJsonBody}, on the event loop or in a diagnostics thread (docs/isolation.md "Request bodies").
 */

import { parse as parseContentType } from 'content-type';
import express, { type Request, type RequestHandler } from 'express';
import { PayloadTooLarge, UnsupportedMediaType } from '../../shared/errors/index.js';
import { payloadTooLargeDetail } from '../middleware/body-size-guard.js';
import { type BodyKind, malformedBodyError, type RawJsonBody } from './decode-json.js';

interface BodyParserError {
  type?: string;
  message?: string;
  length?: number;
}

function charsetOf(header: string | undefined): string {
  if (header === undefined) return 'utf-8';
  try {
    return parseContentType(header).parameters.charset?.toLowerCase() ?? 'utf-8';
  } catch {
    return 'utf-8';
  }
}

/** The media types read as JSON: `application/json` and any `+json` structured syntax (RFC 6839). */
const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

/**
 * The refusal of a body that is not JSON. A body without a `Content-Type` is read as JSON (raw HTTP clients); a
 * request without a body has nothing to refuse.
 * @returns UnsupportedMediaType (415) naming the media type sent, or undefined when the body may be read
 */
function unsupportedMediaType(req: Request): UnsupportedMediaType | undefined {
  const header = req.headers['content-type']?.trim();
  if (!header || req.is(JSON_MEDIA_TYPES) !== false) return undefined;
  let mediaType: string;
  try {
    mediaType = parseContentType(header).type;
  } catch {
    mediaType = header.slice(0, 100);
  }
  return new UnsupportedMediaType(
    `Content-Type '${mediaType}' is not supported: the request body must be JSON, sent with 'Content-Type: application/json'.`,
  );
}

/**
 * The raw body a {@link readBody} middleware left on the request.
 * @param body - `req.body` after {@link readBody}
 * @returns the body, or undefined when the request has none
 */
export function rawBodyOf(body: unknown): RawJsonBody | undefined {
  return body === undefined ? undefined : (body as RawJsonBody);
}

/**
 * Build the reader. A body sent as `application/json`, as a `+json` type, or without a `Content-Type` is read; any
 * other media type is refused before a byte is read. `req.body` becomes a {@link RawJsonBody}, or stays undefined when
 * the request has no body (read it with {@link rawBodyOf}).
 * @param maxBodyBytes - largest body, in bytes (`MAX_REQUEST_BODY_MIB` × 1 MiB)
 * @param kind - which error class an unreadable body maps to
 * @throws UnsupportedMediaType (415) through `next` for a body whose `Content-Type` is not JSON (`text/plain`, a
 *   form); PayloadTooLarge (413) past the limit; InvalidJSON or ValidationError (422) for a body that
 *   cannot be read (an unknown `Content-Encoding`, a corrupt gzip stream)
 * @see spec §8, docs/limits.md
 */
export function readBody(maxBodyBytes: number, kind: BodyKind): RequestHandler {
  const read = express.raw({ limit: maxBodyBytes, type: () => true });
  return (req, res, next) => {
    const refusal = unsupportedMediaType(req);
    if (refusal) {
      next(refusal);
      return;
    }
    read(req, res, (error?: unknown) => {
      if (error !== undefined) {
        const failure = error as BodyParserError;
        next(
          failure.type === 'entity.too.large'
            ? new PayloadTooLarge(payloadTooLargeDetail(failure.length, maxBodyBytes))
            : malformedBodyError(kind, failure.message ?? 'unreadable body'),
        );
        return;
      }
      if (Buffer.isBuffer(req.body))
        req.body = { bytes: req.body, charset: charsetOf(req.headers['content-type']) } satisfies RawJsonBody;
      next();
    });
  };
}
