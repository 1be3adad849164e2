/**
 * The single error handler: every failure becomes an RFC 7807 problem document (spec §7). Logs are verbose (with the
 * cause); the caller never sees a stack trace. If rendering itself fails, a minimal 500 document is still sent.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { type ErrorDisclosure, NotFound, renderProblem, toMthdsError } from '../../shared/errors/index.js';
import type { Logger } from '../../shared/observability/index.js';
import { sendJson } from '../send-json.js';

/** What the handler needs. */
export interface ProblemHandlerOptions {
  docsUrl: string;
  disclosure: ErrorDisclosure;
  logger: Logger;
}

/**
 * The 404 for unknown routes, pointing to where the served routes are listed. Its body never has a `code` member, so
 * SDK clients read it as "route not served" (API-CONTRACT.md §1.7).
 */
export const routeNotFound: RequestHandler = (req, _res, next) => {
  next(
    new NotFound(
      `No route ${req.method} ${req.path}. The served routes are listed in the API reference at /docs and in the OpenAPI document at GET /v1/openapi.json.`,
    ),
  );
};

/**
 * Build the error handler.
 * @param options - docs base URL, disclosure mode, logger
 */
export function problemHandler(options: ProblemHandlerOptions): ErrorRequestHandler {
  return (thrown: unknown, req, res, _next) => {
    const requestId = typeof res.locals.requestId === 'string' ? res.locals.requestId : 'unknown';
    try {
      const problem = renderProblem(thrown, {
        instance: req.path,
        requestId,
        docsUrl: options.docsUrl,
        disclosure: options.disclosure,
      });
      const error = toMthdsError(thrown);
      const logFields = { request_id: requestId, path: req.path, status: problem.status, error_type: error.error_type };
      if (problem.status >= 500) options.logger.error({ ...logFields, err: thrown }, error.message);
      else options.logger.warn(logFields, error.message);
      if (res.headersSent) return;
      res.set(problem.headers);
      sendJson(res, problem.status, problem.body, 'application/problem+json');
    } catch (renderFailure) {
      options.logger.error({ request_id: requestId, err: renderFailure }, 'problem rendering failed');
      if (res.headersSent) return;
      sendJson(
        res,
        500,
        {
          type: `${options.docsUrl}/errors/internal-server-error/`,
          title: 'Internal server error',
          status: 500,
          detail: 'An unexpected error occurred. The request id is included for support.',
          instance: req.path,
          request_id: requestId,
          error_type: 'InternalServerError',
          error_domain: 'runtime',
          retryable: false,
          error_category: 'unknown',
        },
        'application/problem+json',
      );
    }
  };
}
