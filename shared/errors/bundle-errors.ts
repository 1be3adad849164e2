/**
 * Errors of the language core: a bundle that does not parse or does not validate.
 *
 * @see spec §2.6, §7.2 (422 `ValidateBundleError` on the run routes)
 */
import { MthdsError, type MthdsErrorOptions } from './mthds-error.js';
import type { ValidationErrorItem } from './validation-error-item.js';

/** Position of a parse failure, 1-based. */
export interface SourcePosition {
  source: string | null;
  line: number;
  column: number;
}

/** A `.mthds` text that is not valid TOML or not a bundle (caller-facing; survives strict disclosure). */
export class MthdsParserError extends MthdsError {
  readonly position: SourcePosition | undefined;
  constructor(message: string, position?: SourcePosition, options: MthdsErrorOptions = {}) {
    super(message, options);
    this.position = position;
  }
}

/**
 * A bundle that fails validation on a run route. Carries the full list of items (never empty).
 * @see spec §7.2 rule 3
 */
export class ValidateBundleError extends MthdsError {
  readonly validation_errors: ValidationErrorItem[];
  constructor(message: string, validationErrors: ValidationErrorItem[], options: MthdsErrorOptions = {}) {
    super(message, {
      userAction: { kind: 'change_input', detail: 'Check the validation_errors array for specific issues' },
      ...options,
    });
    this.validation_errors = validationErrors;
  }

  override wireExtensions(): Record<string, unknown> {
    return { validation_errors: this.validation_errors };
  }
}

/**
 * 403: a method package or bundle ships custom Python (`.py`); running it needs a sandbox-hosted deployment, which this
 * runner is not (spec §2.2–2.3; docs/bundles.md#whole-bundle-transports, docs/methods.md#shaping-and-gates).
 */
export class CustomCodeRequiresSandbox extends MthdsError {}
