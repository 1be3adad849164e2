/**
 * A database that cannot be reached, told apart from a query that failed (docs/control-plane.md#outages): a refused or
 * lost connection, a server shutting down, or a pool that timed out becomes ControlPlaneUnavailableError (503,
 * retryable); any other error passes unchanged.
 */
import { ControlPlaneUnavailableError } from '../errors/index.js';

/** SQLSTATE classes of a lost or refused connection and of a server going away (`08…`, `57P0…`). */
const UNREACHABLE_SQLSTATE = /^(08|57P0)/;
/** Node's network error codes that mean the server is not there. */
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);
/** What `pg` says when the server closed the connection or a pooled connection timed out. */
const UNREACHABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/;

/**
 * Whether an error says the database cannot be reached (rather than that a query failed).
 * @param error - what a query threw
 */
function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_ERRNO.has(code))) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnreachable);
  return UNREACHABLE_MESSAGE.test(error.message);
}

/**
 * Run a database call, an unreachable database answered as a 503.
 * @param call - the call
 * @throws ControlPlaneUnavailableError (503, retryable) when the database cannot be reached; else what `call` throws
 */
export async function whenDatabaseReachable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isDatabaseUnreachable(error)) throw error;
    throw new ControlPlaneUnavailableError(
      'The control plane database cannot be reached right now; retry later. Runs already accepted are not affected.',
      { retryable: true, cause: error },
    );
  }
}
