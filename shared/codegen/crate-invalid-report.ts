/**
 * The invalid arm of the resolve, codegen and build routes (API-CONTRACT.md §3.8–3.12; spec §4.6–4.10):
 * `CrateInvalidReport` `{is_valid: false, validation_errors, message}`, with no `pending_signatures` and no
 * `is_runnable`.
 */
import type { ValidationErrorItem } from '../errors/index.js';

/** The invalid verdict of a closure route. */
export interface CrateInvalidReport {
  is_valid: false;
  /** Never empty. */
  validation_errors: ValidationErrorItem[];
  message: string;
}

/**
 * Build the invalid arm.
 * @param errors - the validation items (static rules or dry-run failures)
 * @param message - the verdict message
 */
export function crateInvalidReport(errors: ValidationErrorItem[], message: string): CrateInvalidReport {
  return { is_valid: false, validation_errors: errors, message };
}
