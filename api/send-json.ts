/**
 * Send a JSON body with an exact content type and no `charset` parameter, as the reference does
 * (docs/api.md#json-and-content-types): `application/json` for successes, `application/problem+json` for errors.
 */
import type { Response } from 'express';

/** The two content types this API answers with. */
export type JsonContentType = 'application/json' | 'application/problem+json';

/**
 * Serialise compactly and send.
 * @param res - the Express response
 * @param status - HTTP status
 * @param body - any JSON-serialisable value
 * @param contentType - defaults to `application/json`
 */
export function sendJson(
  res: Response,
  status: number,
  body: unknown,
  contentType: JsonContentType = 'application/json',
): void {
  res.status(status).setHeader('Content-Type', contentType);
  res.end(Buffer.from(JSON.stringify(body), 'utf8'));
}

/**
 * Send a body already serialised (by a diagnostics thread) with an exact content type.
 * @param res - the Express response
 * @param status - HTTP status
 * @param body - compact UTF-8 JSON, the bytes {@link sendJson} would send
 * @param contentType - defaults to `application/json`
 */
export function sendEncodedJson(
  res: Response,
  status: number,
  body: Uint8Array,
  contentType: JsonContentType = 'application/json',
): void {
  res.status(status).setHeader('Content-Type', contentType);
  res.end(body);
}
