/**
 * A Server-Sent Events response (the `text/event-stream` framing of the HTML Living Standard, §9.2): one event is
 * `id:` (optional), `event:` and one `data:` line of compact JSON, then a blank line; a line starting with `:` is a
 * comment, sent as a heartbeat so proxies keep an idle connection open. The stream is bounded by an idle time: when no
 * event was sent for that long it ends (the client resumes with `Last-Event-ID`). Writes wait for the socket to drain,
 * so a slow client holds at most one event in memory.
 */
import { once } from 'node:events';
import type { Response } from 'express';

/** Timing of a stream, in ms. */
export interface SseTiming {
  /** Period of the heartbeat comments. */
  heartbeatMs: number;
  /** How long the stream may go without an event before it ends. */
  idleMs: number;
}

/** An open event stream on a response. */
export class SseStream {
  private readonly heartbeat: NodeJS.Timeout;
  private idle: NodeJS.Timeout;

  /**
   * Send the stream's headers (200, `text/event-stream`, no caching, no proxy buffering) and start its timers.
   * @param res - the Express response
   * @param timing - heartbeat period and idle bound
   * @param stop - aborted when the stream must end: the client went away, or it was idle for `timing.idleMs`
   */
  constructor(
    private readonly res: Response,
    private readonly timing: SseTiming,
    private readonly stop: AbortController,
  ) {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    this.heartbeat = setInterval(() => res.write(': heartbeat\n\n'), timing.heartbeatMs);
    this.idle = this.idleTimer();
  }

  /**
   * Send one event and restart the idle time.
   * @param type - the `event:` name
   * @param data - the event, sent as one line of JSON
   * @param id - the `id:` a client sends back in `Last-Event-ID`; none for an event that cannot be resumed after
   * @throws the abort reason when the stream is stopped while the socket drains
   */
  async send(type: string, data: unknown, id?: string): Promise<void> {
    clearTimeout(this.idle);
    this.idle = this.idleTimer();
    const frame = `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
    if (!this.res.write(frame)) await once(this.res, 'drain', { signal: this.stop.signal });
  }

  /** Stop the timers and end the response. */
  end(): void {
    clearInterval(this.heartbeat);
    clearTimeout(this.idle);
    this.res.end();
  }

  private idleTimer(): NodeJS.Timeout {
    return setTimeout(() => this.stop.abort(new Error('event stream idle')), this.timing.idleMs);
  }
}
