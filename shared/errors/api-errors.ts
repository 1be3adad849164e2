/**
 * Errors authored by the HTTP layer's own checks (docs/errors.md#catalog). Their `retryable` is always false and their
 * detail is never redacted.
 */
import { MthdsError, type MthdsErrorOptions } from './mthds-error.js';

/** 400: a request the server cannot act on for a reason other than its schema. */
export class BadRequest extends MthdsError {}
/** 400: `/v1/start` on a blocking-only orchestration (spec §4.4). */
export class StartRequiresAsyncOrchestration extends MthdsError {}
/** Options of {@link Unauthenticated}. */
export interface UnauthenticatedOptions extends MthdsErrorOptions {
  /** The `WWW-Authenticate` challenge sent with the 401 (RFC 9110 §11.6.1); `Bearer` when unset. */
  challenge?: string;
}

/** 401: missing, malformed, wrong or expired bearer token (spec §5 rule 3); the detail says which. */
export class Unauthenticated extends MthdsError {
  /** The `WWW-Authenticate` header value of the problem response. */
  readonly challenge: string;

  /**
   * @param message - the detail: what was missing or wrong
   * @param options - the error options, and the challenge (`Bearer` by default; the admin dashboard adds `Basic`)
   */
  constructor(message: string, options: UnauthenticatedOptions = {}) {
    const { challenge, ...rest } = options;
    super(message, rest);
    this.challenge = challenge ?? 'Bearer';
  }
}
/** 403: a state-changing request with browser (HTTP Basic) credentials sent from another site (a forged request). */
export class CrossOriginRequestRefused extends MthdsError {}
/**
 * 403: a valid tenant credential (the API key, a JWT without the `operator` role) on an operator route (`/admin/*`,
 * `/metrics`), which needs the operator credential (docs/run-ownership.md#operators).
 */
export class OperatorCredentialRequired extends MthdsError {}
/** 403: a state-changing request to the queue dashboard while it is read-only (`ADMIN_QUEUES_READ_ONLY=true`). */
export class QueueDashboardReadOnly extends MthdsError {}
/** 403: a per-request `orchestration_mode` override the deployment does not allow (spec §1.1). */
export class OrchestrationModeOverrideForbidden extends MthdsError {}
/** 404: no such route. Its body never carries a `code` member (docs/api.md#unknown-routes-and-methods). */
export class NotFound extends MthdsError {}
/**
 * 404: `/errors/{name}` names no documented error type (code `error_page_not_found`: a served route's 404 always
 * carries a `code`; docs/api.md#unknown-routes-and-methods).
 */
export class ErrorPageNotFoundError extends MthdsError {}
/**
 * 503: `GET /console` on a deployment whose console was not built (`npm run build` builds it; docs/console.md): the
 * API runs from sources without the console's static files.
 */
export class ConsoleNotBuiltError extends MthdsError {}
/** 405: the route exists with another method. */
export class MethodNotAllowed extends MthdsError {}
/** 413: body over `MAX_REQUEST_BODY_MIB` (spec §8). */
export class PayloadTooLarge extends MthdsError {}
/** 415: a request body whose `Content-Type` is not JSON (spec §1 rule 5: the request body is JSON). */
export class UnsupportedMediaType extends MthdsError {}
/** 422: the request body fails its schema. */
export class ValidationError extends MthdsError {}
/** 422: the request body is not JSON, or not a JSON object. */
export class InvalidJSON extends MthdsError {}
/** 500: the deployment is missing a setting it needs for this request. */
export class ServerMisconfigured extends MthdsError {}
/** 500: the catch-all for an unexpected failure (`error_category: "unknown"`). */
export class InternalServerError extends MthdsError {}
/** 501: a registry-form `method_ref`, or method references on a deployment that does not fetch them (spec §2.2). */
export class MethodRefNotSupported extends MthdsError {}
/** 422: `callback_urls` (or another run extra) fails its rules (spec §2.3, §6 rule 3). */
export class InvalidCallbackUrls extends MthdsError {}
/** 404: no run with this id is known (code `run_not_found`; docs/api.md#run-lifecycle). */
export class RunNotFoundError extends MthdsError {}
/**
 * 409: the run finished without a result (code `run_result_unavailable`; docs/api.md#run-results). The problem
 * document carries the run's status under `run_status` and its error report under `error` (null when it has none;
 * docs/run-events.md#why-a-run-failed).
 */
export class RunResultUnavailableError extends MthdsError {
  /**
   * @param message - the detail: `Run finished with status <STATUS>: <the report's message>`, or
   *   `Run finished with status <STATUS>; no result available` without a report (clients read the status word in it)
   * @param runStatus - the run's lifecycle status (`FAILED`, …), rendered as `run_status`
   * @param runError - the run's error report (an `ErrorReport`, as JSON), rendered as `error`; null when it has none
   */
  constructor(
    message: string,
    private readonly runStatus: string,
    private readonly runError: object | null,
  ) {
    super(message);
  }

  override wireExtensions(): Record<string, unknown> {
    return { run_status: this.runStatus, error: this.runError };
  }
}
/** 422: `GET /v1/models?type=` names no model category. */
export class InvalidModelCategory extends MthdsError {}
