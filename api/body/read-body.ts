/**
 * Reading a request body off the socket, undecoded: its media type checked (415), `Content-Encoding` undone, the size
 * capped (413), the charset noted. Reading is I/O, so it never holds the event loop; decoding is left to
 * {@link decodeJsonBody}, on the event loop or in a diagnostics thread (docs/isolation.md#request-bodies).
 *
 * A body sent as it is (no `Content-Encoding`, or `identity`) with a `Content-Length` within the limit — what JSON
 * clients send — is copied into one buffer of that length as its chunks arrive, each copy well under a millisecond.
 * Any other body (compressed, chunked, or over the limit) goes through `express.raw`, which joins the chunks at the
 * end: one copy of the whole body on the event loop (about 90 ms for 90 MiB on the 2-core reference machine).
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

/** The length of a body sent as it is with a `Content-Length` within `maxBodyBytes`, else undefined. */
function plainBodyLength(req: Request, maxBodyBytes: number): number | undefined {
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  const header = req.headers['content-length'];
  if ((encoding !== undefined && encoding !== 'identity') || header === undefined || !/^\d{1,15}$/.test(header))
    return undefined;
  const length = Number(header);
  return length <= maxBodyBytes ? length : undefined;
}

/**
 * Read `length` bytes of a request into a buffer of their own, chunk by chunk as they arrive. `done` is called once,
 * from the event that settles the read, so that a client leaving half-way is answered (and logged) before its
 * response closes, as `express.raw` does.
 * @param done - called with the bytes, whose `ArrayBuffer` holds nothing else (so it can be moved to a thread), or
 *   with an Error when the request ends short of `length`, is aborted or its connection fails
 */
function readPlainBody(req: Request, length: number, done: (error: Error | undefined, bytes?: Buffer) => void): void {
  const bytes = Buffer.allocUnsafeSlow(length);
  let received = 0;
  let settled = false;
  const settle = (error: Error | undefined) => {
    if (settled) return;
    settled = true;
    if (error) done(error);
    else done(undefined, bytes);
  };
  req.on('data', (chunk: Buffer) => {
    const room = Math.min(chunk.length, length - received);
    chunk.copy(bytes, received, 0, room);
    received += room;
  });
  req.once('end', () =>
    settle(received === length ? undefined : new Error('request size did not match content length')),
  );
  req.once('aborted', () => settle(new Error('request aborted')));
  req.once('error', settle);
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
    const length = plainBodyLength(req, maxBodyBytes);
    if (length !== undefined) {
      readPlainBody(req, length, (error, bytes) => {
        if (error || !bytes) {
          next(malformedBodyError(kind, error?.message ?? 'unreadable body'));
          return;
        }
        req.body = { bytes, charset: charsetOf(req.headers['content-type']) } satisfies RawJsonBody;
        next();
      });
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
