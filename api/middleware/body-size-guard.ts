/**
 * Body-size guard (spec §8): a declared `Content-Length` above the limit is refused with 413 before routing and auth,
 * on every method and path. Streamed bodies are capped by the JSON parser with the same limit.
 */
import type { RequestHandler } from 'express';
import { PayloadTooLarge } from '../../shared/errors/index.js';

/**
 * Build the guard.
 * @param maxBytes - the limit in bytes (`MAX_REQUEST_BODY_MIB` × 1 MiB)
 * @throws PayloadTooLarge (413) through `next` when the declared length is over the limit
 */
export function bodySizeGuard(maxBytes: number): RequestHandler {
  return (req, _res, next) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isInteger(declared) && declared > maxBytes) {
      next(new PayloadTooLarge(payloadTooLargeDetail(declared, maxBytes)));
      return;
    }
    next();
  };
}

/**
 * The detail of a 413.
 * @param size - bytes received or declared (undefined when unknown)
 * @param maxBytes - the limit in bytes
 */
export function payloadTooLargeDetail(size: number | undefined, maxBytes: number): string {
  const limitMib = maxBytes / (1024 * 1024);
  const what = size === undefined ? 'The request body' : `The request body (${size} bytes)`;
  return `${what} exceeds the limit of ${limitMib} MiB (MAX_REQUEST_BODY_MIB). Send a smaller body.`;
}
