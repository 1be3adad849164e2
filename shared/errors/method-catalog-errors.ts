/**
 * Errors of the methods catalog (docs/api.md#methods-catalog; docs/methods.md#method_id). All are authored by the HTTP
 * layer: `error_domain: "input"`, `retryable: false`, and each carries the `code` the hosted API's clients branch on.
 */
import { MthdsError, type MthdsErrorOptions } from './mthds-error.js';
import type { ValidationErrorItem } from './validation-error-item.js';

/**
 * 404: no method with this id belongs to the caller (code `not_found`): an unknown id and another owner's method answer
 * alike.
 */
export class MethodNotFoundError extends MthdsError {}
/** 404: the method exists, but has no published version with this number (code `method_version_not_found`). */
export class MethodVersionNotFoundError extends MthdsError {}
/**
 * 409: a compare-and-swap write (`expected_updated_at`, `expected_draft_updated_at`) found the draft moved since the
 * caller read it; nothing was written (code `method_update_conflict`).
 */
export class MethodUpdateConflictError extends MthdsError {}
/** 409: the method is being deleted: it is neither read, written, run nor deleted again (code `method_being_deleted`). */
export class MethodBeingDeletedError extends MthdsError {}
/** 409: a version selector names a method that was never published (code `method_not_published`). */
export class MethodNotPublishedError extends MthdsError {}

/**
 * 422: a method saved with a bundle that does not validate (code `method_invalid`): nothing was written. Carries the
 * items of the `POST /v1/validate` verdict (`validation_errors`) and the whole verdict (`validation`).
 */
export class InvalidMethodError extends MthdsError {
  readonly validation_errors: ValidationErrorItem[];
  readonly validation: Record<string, unknown>;
  /**
   * @param message - the detail
   * @param report - the invalid arm of the `POST /v1/validate` verdict
   */
  constructor(
    message: string,
    report: { validation_errors: ValidationErrorItem[] } & Record<string, unknown>,
    options: MthdsErrorOptions = {},
  ) {
    super(message, {
      userAction: { kind: 'change_input', detail: 'Fix the bundle: validation_errors says what is wrong and where' },
      ...options,
    });
    this.validation_errors = report.validation_errors;
    this.validation = report;
  }

  override wireExtensions(): Record<string, unknown> {
    return { validation_errors: this.validation_errors, validation: this.validation };
  }
}
