/**
 * The access log: one `info` line per request once its response is over (README.md#logs), on the process logger.
 * The path is logged without its query string, so nothing a caller puts there (a token, an id) reaches the logs.
 */
import type { RequestHandler } from 'express';
import type { Logger } from '../../shared/observability/index.js';

/** The fields of an access log line (its message is `http:request`). */
export interface AccessLogFields {
  /** The request's id, as in `X-Request-ID`. */
  request_id: string;
  method: string;
  /** The request path, without the query string. */
  path: string;
  /** The response's status code; for an aborted request, the one set when the client left (200 when none was). */
  status: number;
  /** From the request's arrival to the end of its response, in ms (0.1 ms resolution). */
  duration_ms: number;
  /** Present, true, when the client closed the connection before the response was over. */
  aborted?: true;
}

/**
 * Build the middleware; it must come after the request id (it logs `res.locals.requestId`).
 * @param logger - the process logger
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const { method, path } = req;
    res.once('close', () => {
      const fields: AccessLogFields = {
        request_id: String(res.locals.requestId),
        method,
        path,
        status: res.statusCode,
        duration_ms: Math.round(Number(process.hrtime.bigint() - started) / 100_000) / 10,
      };
      if (!res.writableFinished) fields.aborted = true;
      logger.info(fields, 'http:request');
    });
    next();
  };
}
