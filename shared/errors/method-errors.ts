/**
 * Errors of methods fetched by address (`method_ref`): the reference grammar, the git fetch, and locating the package
 * in the fetched repository. All are caller-facing: their detail survives `ERROR_DISCLOSURE=strict`.
 *
 * @see spec §2.2, §7.2; docs/methods.md#errors
 */
import { MthdsError } from './mthds-error.js';

/**
 * 422: a `method_ref` that looks like an address but is malformed or names a host this deployment does not fetch from
 * (docs/methods.md#grammar).
 */
export class MethodRefParseError extends MthdsError {}
/**
 * 422: `git ls-remote` or the clone failed, the `@tag` names no tag, the repository has no HEAD, or the clone host is
 * refused (docs/methods.md#fetching-and-the-clone-cache).
 */
export class MethodFetchError extends MthdsError {}
/**
 * 404: no manifest of the fetched repository matches the address; the detail lists the package addresses found
 * (docs/methods.md#locating-the-package).
 */
export class MethodPackageNotFoundError extends MthdsError {}
/** 422: several manifests of the fetched repository match the address (docs/methods.md#locating-the-package). */
export class MethodPackageAmbiguityError extends MthdsError {}
/** 422: too many manifests to scan, or the located package exceeds its file-count or size ceiling (spec §8). */
export class MethodPackageTooLargeError extends MthdsError {}
/**
 * 403: a fetched package declares Python structure classes; types must be MTHDS concepts (spec §2.2, always refused).
 */
export class MethodStructuresRefusedError extends MthdsError {}
