/**
 * Telling a git host that did not answer from one that answered no. A `MethodFetchError` whose `cause` is a
 * {@link GitHostUnavailable} failed because the host could not be reached (a connection failure, a timeout, a server
 * error, a clone host name that did not resolve); any other `MethodFetchError` is the host's (or this server's) final
 * word. Only the first kind lets an expired commit resolution stand in (stale-if-error, docs/methods.md).
 *
 * @see spec §2.2; docs/methods.md#fetching-and-the-clone-cache
 */
import { MethodFetchError } from '../errors/index.js';

/**
 * The cause of a `MethodFetchError` raised because the git host could not be reached. Never sent to callers (the
 * wire keeps `MethodFetchError` and its detail); it wraps the underlying failure as its own `cause`, for logs.
 */
export class GitHostUnavailable extends Error {
  /**
   * @param message - what failed, e.g. `git ls-remote timed out after 120000 ms`
   * @param cause - the underlying failure (simple-git's error, the resolver's error)
   */
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'GitHostUnavailable';
  }
}

/**
 * Whether an error is a `MethodFetchError` raised because the git host could not be reached.
 * @param error - anything thrown by a fetch step
 * @returns true when its cause is a {@link GitHostUnavailable}
 */
export function isHostUnavailable(error: unknown): error is MethodFetchError {
  return error instanceof MethodFetchError && error.cause instanceof GitHostUnavailable;
}
