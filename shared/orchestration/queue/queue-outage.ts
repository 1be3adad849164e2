/**
 * Which failures of a Redis call are a queue outage (a 503 `QueueUnavailableError`, retryable) and which are not.
 *
 * Only a failure of the connection or of the Redis server's availability is an outage: a refused, reset or timed-out
 * connection, ioredis giving up on a command (`MaxRetriesPerRequestError`, "Command timed out", "Connection is
 * closed.", a cluster client's "Too many Cluster redirections" while a failover moves a slot), or a server reply saying it cannot serve now (`LOADING`, `READONLY`, `MASTERDOWN`, …). Anything else — a
 * `RangeError` from `JSON.stringify` of a deep value, a `TypeError`, a `WRONGTYPE` reply — is a fault of this request
 * or of this server, which retrying cannot fix: it is rethrown as it is and renders as the catch-all 500.
 *
 * @see spec §7.2 (503 only when the queue is unreachable), docs/errors.md#intended-5xx
 */
import { QueueUnavailableError } from '../../errors/index.js';
import { isConnectionError } from '../../net/connection-errors.js';

/** Error classes of ioredis and `redis-errors` that mean the command never got an answer. */
const OUTAGE_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError', 'AbortError', 'InterruptError']);

/** Messages of the plain `Error`s ioredis raises when a connection is down or a command times out. */
const OUTAGE_MESSAGES =
  /^(Command timed out|Connection is closed\.?|Stream isn't writeable|connect ETIMEDOUT|Socket timeout|Too many Cluster redirections)/;

/**
 * Redis server replies that mean "not now" (loading, failover, read-only replica, out of memory, busy script) or "not
 * to this client" (its ACL user or password refused, a command its user may not run: docs/redis.md): either way the
 * queue is unavailable to the service, whatever the caller sent.
 */
const OUTAGE_REPLIES = /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|BUSY|OOM|WRONGPASS|NOAUTH|NOPERM)\b/;

/**
 * Whether a failure of a Redis call is a queue outage.
 * @param error - anything a Redis or BullMQ call threw
 * @returns true for connection, timeout and availability failures; false for every other error
 */
export function isQueueOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (isConnectionError(error)) return true;
  if (OUTAGE_NAMES.has(error.name)) return true;
  if (error.name === 'ReplyError') return OUTAGE_REPLIES.test(error.message);
  return OUTAGE_MESSAGES.test(error.message);
}

/**
 * Run a Redis call, turning an outage (and only an outage) into a 503.
 * @param call - the Redis or BullMQ call
 * @param describe - the detail of the 503, given the outage's message (e.g. "The run registry (Redis) is unreachable:
 * …")
 * @returns what the call returns
 * @throws QueueUnavailableError (503, `retryable: true`) when {@link isQueueOutage} says so; any other error unchanged
 */
export async function whenQueueReachable<T>(call: () => Promise<T>, describe: (reason: string) => string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isQueueOutage(error)) throw error;
    throw new QueueUnavailableError(describe((error as Error).message), { cause: error, retryable: true });
  }
}
