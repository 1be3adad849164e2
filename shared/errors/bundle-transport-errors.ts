/**
 * Errors of the whole-bundle transports (`bundle_b64` / `files` on the run routes). Authored by the HTTP layer's own
 * checks, so `retryable` is always false and the detail is never redacted.
 *
 * @see spec §2.3; docs/bundles.md#whole-bundle-transports, docs/conformance.md#differences-from-the-reference-runner
 * rows 10–11
 */
import { MthdsError } from './mthds-error.js';

/**
 * 422: a bundle that cannot be taken as sent: both transports at once, a corrupt zip, a refused entry name (absolute,
 * `..`, backslash, `:`, no file name), a symlink or encrypted entry, a non-UTF-8 `.mthds`, an empty bundle, or one
 * without any `.mthds` file (docs/bundles.md#whole-bundle-transports).
 */
export class InvalidBundle extends MthdsError {}

/** 400: `bundle_b64` is not strict base64 (docs/bundles.md#whole-bundle-transports; spec §4.3 per §13 row 10). */
export class InvalidBase64 extends MthdsError {}
