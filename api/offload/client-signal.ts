/**
 * The abort signal of one request: fires when the client closes the connection before the answer is sent, so the
 * work done for it (a diagnostics thread) stops at once.
 */
import type { Response } from 'express';

/**
 * A signal that aborts when the client goes away.
 * @param res - the request's response
 * @returns the signal; its reason is an `Error` saying the client closed the connection
 */
export function clientSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client closed the connection'));
  });
  return controller.signal;
}
