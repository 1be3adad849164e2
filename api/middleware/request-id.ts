/**
 * Request correlation (spec §7.4): keep a well-formed inbound `X-Request-ID`, else mint a UUID; echo it on every
 * response and expose it to handlers as `res.locals.requestId`.
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { workStarted } from '../../shared/lifecycle/index.js';

/** Inbound ids are kept when they are 1–128 characters of `[A-Za-z0-9_-]` (docs/api.md#request-ids). */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Pick the request id for an inbound header value.
 * @param inbound - the raw `X-Request-ID` header (first value when repeated)
 * @returns the trimmed inbound value when acceptable, else a fresh UUID
 */
function chooseRequestId(inbound: string | string[] | undefined): string {
  const candidate = (Array.isArray(inbound) ? inbound[0] : inbound)?.trim();
  return candidate !== undefined && ACCEPTED_REQUEST_ID.test(candidate) ? candidate : randomUUID();
}

/**
 * Middleware: sets `res.locals.requestId` and the `X-Request-ID` response header, and registers the request in the
 * crash context until its connection closes (logged if an exception escapes; docs/run-failures.md).
 */
export const requestId: RequestHandler = (req, res, next) => {
  const id = chooseRequestId(req.headers['x-request-id']);
  res.locals.requestId = id;
  res.setHeader('X-Request-ID', id);
  res.once('close', workStarted({ request_id: id }));
  next();
};
