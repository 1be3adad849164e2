/**
 * Rendering of any thrown value as an RFC 7807 problem document (spec §7).
 *
 * Member order follows the reference (docs/errors.md#errors): `type, title, status, detail, instance, request_id,
 * error_type`, then the classification members. No stack trace is ever rendered.
 */

import { InternalServerError, Unauthenticated } from './api-errors.js';
import { type CatalogEntry, catalogEntry } from './catalog.js';
import { MthdsError, type ProviderMetadata, type UserAction } from './mthds-error.js';

/** `ERROR_DISCLOSURE` modes (spec §7.5). */
export type ErrorDisclosure = 'verbose' | 'strict';

/** What the renderer needs to know about the request. */
export interface ProblemContext {
  /** Request path without the query string. */
  instance: string;
  /** The request's correlation id (also in `X-Request-ID`). */
  requestId: string;
  /** Base of the `type` URIs, without a trailing slash (`{docs_url}`). */
  docsUrl: string;
  disclosure: ErrorDisclosure;
}

/** The wire problem document (spec §7.1). Optional members are omitted, never null. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  request_id: string;
  error_type: string;
  code?: string;
  error_category?: string;
  error_domain?: string;
  retryable?: boolean;
  user_action?: UserAction;
  model?: string;
  provider?: string;
  provider_metadata?: Partial<ProviderMetadata>;
  [extension: string]: unknown;
}

/** A rendered problem: status, body and any headers it implies (`Retry-After`). */
export interface RenderedProblem {
  status: number;
  body: ProblemDocument;
  headers: Record<string, string>;
}

const STRICT_RUNTIME_DETAIL = 'An internal error occurred.';

/**
 * The `detail` of the catch-all 500 (an error that is not an {@link MthdsError}), in every disclosure mode (spec §7.5).
 */
export const CATCH_ALL_DETAIL = 'An unexpected error occurred. The request id is included for support.';

/**
 * Kebab-case of a class name, as the `type` URI needs it (`InvalidJSON` → `invalid-json`,
 * `LLMCompletionError` → `llm-completion-error`). docs/errors.md#error-pages.
 * @param name - a PascalCase class name
 */
export function kebabErrorName(name: string): string {
  return name
    .replace(/(?<=[a-z0-9])(?=[A-Z])/g, '-')
    .replace(/(?<=[A-Z])(?=[A-Z][a-z])/g, '-')
    .toLowerCase();
}

/**
 * Normalise any thrown value into an {@link MthdsError}. A foreign error (a `RangeError`, a `TypeError`, a library's
 * own error) becomes the catch-all `InternalServerError` whose message is the fixed {@link CATCH_ALL_DETAIL} in every
 * disclosure mode, and whose cause is the original: engine and library messages ("Maximum call stack size exceeded")
 * describe this server's internals, not the request, so they go to the server log only (docs/errors.md#disclosure).
 * @param error - anything thrown
 * @see spec §7.5
 */
export function toMthdsError(error: unknown): MthdsError {
  if (error instanceof MthdsError) return error;
  return new InternalServerError(CATCH_ALL_DETAIL, { cause: error, errorCategory: 'unknown' });
}

function statusOf(error: MthdsError, entry: CatalogEntry): number {
  if (error.provider_metadata?.status_code === 429) return 429;
  if (entry.origin === 'api' || entry.pinned) return entry.status;
  return error.error_domain === 'input' ? 422 : 500;
}

/**
 * Whether the request is at fault for an error: its problem status is a 4xx other than 429 (an invalid bundle, a
 * missing input, a taken run id; a provider's rate limit is not the caller's doing). The run metrics count such runs
 * as rejected, not failed (docs/metrics.md).
 * @param thrown - anything thrown, or an error rebuilt from its report
 */
export function isCallerFault(thrown: unknown): boolean {
  const error = toMthdsError(thrown);
  const status = statusOf(error, catalogEntry(error.error_type) as CatalogEntry);
  return status >= 400 && status < 500 && status !== 429;
}

function retryAfterHeader(status: number, error: MthdsError): string | undefined {
  const seconds = error.retry_after_seconds ?? error.provider_metadata?.retry_after_seconds;
  if ((status !== 429 && status !== 503) || typeof seconds !== 'number' || !Number.isFinite(seconds)) return undefined;
  return String(Math.max(0, Math.ceil(seconds)));
}

function strictDetail(error: MthdsError, entry: CatalogEntry): string {
  if (error instanceof InternalServerError) return CATCH_ALL_DETAIL;
  return entry.strictDetail ?? STRICT_RUNTIME_DETAIL;
}

/**
 * The message a caller may see of an error known only by its type and message (an error report, a pipe failure in a
 * run event), by the rules {@link renderProblem} applies to a `detail`: under strict disclosure a runtime error that is
 * not caller-facing says only {@link STRICT_RUNTIME_DETAIL} (or its catalog's replacement), and an uncatalogued or
 * catch-all error says {@link CATCH_ALL_DETAIL}.
 * @param errorType - the `error_type`
 * @param message - the message as raised
 * @param disclosure - `ERROR_DISCLOSURE`
 * @see spec §7.5
 */
export function disclosedMessage(errorType: string, message: string, disclosure: ErrorDisclosure): string {
  if (disclosure === 'verbose') return message;
  const entry = catalogEntry(errorType);
  if (!entry || errorType === 'InternalServerError') return CATCH_ALL_DETAIL;
  if (entry.origin === 'runtime' && !entry.callerFacing) return entry.strictDetail ?? STRICT_RUNTIME_DETAIL;
  return message;
}

/**
 * Render a thrown value as a problem document.
 * @param thrown - anything thrown by a handler or the core
 * @param context - request facts and the disclosure mode
 * @returns status, body and headers; never throws
 */
export function renderProblem(thrown: unknown, context: ProblemContext): RenderedProblem {
  const error = toMthdsError(thrown);
  const entry = catalogEntry(error.error_type) as CatalogEntry;
  const status = statusOf(error, entry);
  const strict = context.disclosure === 'strict';
  const redacted = strict && entry.origin === 'runtime' && !entry.callerFacing;
  const body: ProblemDocument = {
    type: `${context.docsUrl}/errors/${kebabErrorName(error.error_type)}/`,
    title: entry.title,
    status,
    detail: redacted || (strict && error instanceof InternalServerError) ? strictDetail(error, entry) : error.message,
    instance: context.instance,
    request_id: context.requestId,
    error_type: error.error_type,
  };
  if (entry.code !== undefined) body.code = entry.code;
  if (error.error_category !== undefined) body.error_category = error.error_category;
  if (error.error_domain !== undefined) body.error_domain = error.error_domain;
  if (error.retryable !== undefined) body.retryable = error.retryable;
  if (error.user_action !== undefined && !redacted) body.user_action = error.user_action;
  if (!strict) {
    if (error.model !== undefined) body.model = error.model;
    if (error.provider !== undefined) body.provider = error.provider;
    if (error.provider_metadata !== undefined)
      body.provider_metadata = providerMetadataForWire(error.provider_metadata);
  } else if (error.provider_metadata !== undefined) {
    const reduced = reducedProviderMetadata(error.provider_metadata);
    if (Object.keys(reduced).length > 0) body.provider_metadata = reduced;
  }
  Object.assign(body, error.wireExtensions());
  const headers: Record<string, string> = {};
  const retryAfter = retryAfterHeader(status, error);
  if (retryAfter !== undefined) headers['Retry-After'] = retryAfter;
  if (status === 401) headers['WWW-Authenticate'] = error instanceof Unauthenticated ? error.challenge : 'Bearer';
  return { status, body, headers };
}

function providerMetadataForWire(metadata: ProviderMetadata): Partial<ProviderMetadata> {
  const wire: Partial<ProviderMetadata> = { ...metadata };
  if (typeof wire.retry_after_seconds === 'number' && !Number.isFinite(wire.retry_after_seconds))
    wire.retry_after_seconds = null;
  return wire;
}

function reducedProviderMetadata(metadata: ProviderMetadata): Partial<ProviderMetadata> {
  const reduced: Partial<ProviderMetadata> = {};
  if (metadata.status_code !== undefined) reduced.status_code = metadata.status_code;
  if (metadata.retry_after_seconds !== undefined) {
    reduced.retry_after_seconds = Number.isFinite(metadata.retry_after_seconds) ? metadata.retry_after_seconds : null;
  }
  return reduced;
}
