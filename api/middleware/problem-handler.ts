/**
 * The single error handler: every failure becomes an RFC 7807 problem document (spec §7). Logs are verbose (with the
 * cause); the caller never sees a stack trace. If rendering itself fails, a minimal 500 document is still sent.
 */
import type { ErrorRequestHandler, RequestHandler } from 'express';
import {
  type ErrorDisclosure,
  NotFound,
  renderProblem,
  toMthdsError,
  ValidationError,
} from '../../shared/errors/index.js';
import type { Logger } from '../../shared/observability/index.js';
import { activeTraceId } from '../../shared/observability/index.js';
import { sendJson } from '../send-json.js';

/** What the handler needs. */
export interface ProblemHandlerOptions {
  docsUrl: string;
  disclosure: ErrorDisclosure;
  logger: Logger;
}

/**
 * The 404 for unknown routes, pointing to where the served routes are listed. Its body never has a `code` member, so
 * SDK clients read it as "route not served" (docs/api.md#unknown-routes-and-methods).
 */
export const routeNotFound: RequestHandler = (req, _res, next) => {
  next(
    new NotFound(
      `No route ${req.method} ${req.path}. The served routes are listed in the API reference at /docs and in the OpenAPI document at GET /v1/openapi.json.`,
    ),
  );
};

/** The message the router gives the `URIError` of a path parameter it cannot decode. */
const UNDECODABLE_PARAM = /^Failed to decode param '(.*)'$/s;

/**
 * The 422 of a path parameter that is not percent-encoded UTF-8 (`%ED%A0%80`, a surrogate; `%E0%A4`, a cut
 * sequence): the router's `URIError` (status 400) names the raw parameter. No decoded parameter can hold a lone
 * surrogate, so a run id, scope or name that reaches a handler is always Unicode text (docs/limits.md "Lone
 * surrogates").
 * @param thrown - what the request failed with
 * @returns the ValidationError to answer instead, or undefined for any other failure
 */
function undecodableParam(thrown: unknown): ValidationError | undefined {
  if (!(thrown instanceof URIError) || (thrown as { status?: unknown }).status !== 400) return undefined;
  const raw = UNDECODABLE_PARAM.exec(thrown.message)?.[1];
  if (raw === undefined) return undefined;
  return new ValidationError(
    `path: the parameter '${raw.slice(0, 200)}' is not percent-encoded UTF-8 text; percent-encode the UTF-8 bytes of each character (a lone surrogate has none)`,
  );
}

/**
 * Build the error handler.
 * @param options - docs base URL, disclosure mode, logger
 */
export function problemHandler(options: ProblemHandlerOptions): ErrorRequestHandler {
  return (failure: unknown, req, res, _next) => {
    const thrown = undecodableParam(failure) ?? failure;
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
      const traceId = activeTraceId();
      sendJson(
        res,
        problem.status,
        traceId ? { ...problem.body, trace_id: traceId } : problem.body,
        'application/problem+json',
      );
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
