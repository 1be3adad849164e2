/**
 * The system error codes of a network connection that could not be made or was lost: what a caller sees while a
 * dependency (Redis, PostgreSQL, a provider) is unreachable, as opposed to a fault of the request or of this process.
 */

/** Socket and resolver error codes of an unreachable or dropped connection. */
const CONNECTION_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * Whether an error is a connection that could not be made or was lost.
 * @param error - anything thrown
 * @returns true when its `code` is one of {@link CONNECTION_ERROR_CODES}
 */
export function isConnectionError(error: unknown): boolean {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' && CONNECTION_ERROR_CODES.has(code);
}
