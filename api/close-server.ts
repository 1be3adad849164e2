/**
 * Closing the HTTP server on shutdown (docs/run-failures.md#shutdown-and-grace-periods): stop accepting connections,
 * close idle
 * keep-alive connections at once, let requests in progress finish within the grace period, then close every
 * connection.
 */
import type { Server } from 'node:http';
import { settleWithin } from '../shared/lifecycle/index.js';

/**
 * Close a server within a grace period.
 * @param server - the listening server
 * @param graceMs - how long requests in progress may take to finish, in ms (`SHUTDOWN_GRACE_MS`)
 * @returns once every connection is closed
 */
export async function closeServer(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  if (!(await settleWithin(closed, graceMs))) {
    server.closeAllConnections();
    await closed;
  }
}
