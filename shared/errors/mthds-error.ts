/**
 * The base class of every error this service raises on purpose.
 *
 * Glossary: `error_type` is the stable wire name (the class name), `error_domain` says who must act (`input`: the
 * caller,
 * `config`/`runtime`: the deployment), `retryable` says whether the same request may succeed later.
 *
 * @see spec §7.1, CONTRIBUTING.md#9-typed-errors
 */
import { catalogEntry, type ErrorDomain, type ErrorType } from './catalog.js';

/** What a caller can do about an error (docs/errors.md#errors). */
export interface UserAction {
  kind:
    | 'wait_and_retry'
    | 'check_billing'
    | 'check_credentials'
    | 'change_input'
    | 'change_model'
    | 'contact_support'
    | 'unknown';
  detail: string;
}

/** Metadata of a failed upstream inference call (docs/errors.md#errors). Stripped under strict disclosure. */
export interface ProviderMetadata {
  provider: string;
  sdk_exception_type: string;
  message: string;
  status_code?: number;
  request_id?: string;
  retry_after_seconds?: number | null;
  provider_error_code?: string;
}

/** Options shared by every error constructor. */
export interface MthdsErrorOptions {
  /** The underlying error, kept for logs (never sent to callers). */
  cause?: unknown;
  /** Overrides the catalog's domain (e.g. an inference error classified by category). */
  errorDomain?: ErrorDomain | null;
  /** Whether retrying can succeed; emitted only when set (runtime errors) or always false (API errors). */
  retryable?: boolean;
  userAction?: UserAction;
  errorCategory?: string;
  model?: string;
  provider?: string;
  providerMetadata?: ProviderMetadata;
  /** Wire name to report instead of the class name (errors rebuilt from another process's report). */
  errorType?: ErrorType;
  /** Seconds the caller should wait before retrying; sent as `Retry-After` on a 429 or 503 (spec §7.2). */
  retryAfterSeconds?: number;
}

/**
 * Base error. Subclasses are named after their `error_type`, which must be in the catalog.
 *
 * @throws Error at construction when a subclass is not catalogued (a programming error caught by the catalog test)
 */
export class MthdsError extends Error {
  /** Stable wire name; equals the class name. */
  readonly error_type: ErrorType;
  /** Fault domain, or undefined for domain-less errors. */
  readonly error_domain: ErrorDomain | undefined;
  /** Retry hint; undefined when the source does not say. */
  readonly retryable: boolean | undefined;
  readonly user_action: UserAction | undefined;
  readonly error_category: string | undefined;
  readonly model: string | undefined;
  readonly provider: string | undefined;
  readonly provider_metadata: ProviderMetadata | undefined;
  /**
   * Seconds to wait before retrying, when the service itself knows (a saturated pool); see {@link MthdsErrorOptions}.
   */
  readonly retry_after_seconds: number | undefined;

  constructor(message: string, options: MthdsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const name = options.errorType ?? new.target.name;
    const entry = catalogEntry(name);
    if (!entry) throw new Error(`error class ${name} is not in ERROR_CATALOG`);
    Object.setPrototypeOf(this, new.target.prototype);
    this.name = name;
    this.error_type = name as ErrorType;
    this.error_domain = options.errorDomain === null ? undefined : (options.errorDomain ?? entry.domain);
    this.retryable = entry.origin === 'api' ? false : options.retryable;
    this.user_action = options.userAction;
    this.error_category = options.errorCategory;
    this.model = options.model;
    this.provider = options.provider;
    this.provider_metadata = options.providerMetadata;
    this.retry_after_seconds = options.retryAfterSeconds;
  }

  /**
   * Extra problem-document members this error carries beyond the envelope (e.g. `validation_errors`).
   * @returns a plain JSON object; empty by default
   */
  wireExtensions(): Record<string, unknown> {
    return {};
  }
}
