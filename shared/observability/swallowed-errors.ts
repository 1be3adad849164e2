/**
 * Errors the service handles by carrying on: an ioredis connection failing while it reconnects, a BullMQ queue
 * relaying that failure, a worker-thread pool or a quarantine process failing outside a task. None is thrown to a
 * caller, but none passes unseen either: each counts in `mthds_swallowed_errors_total{site}` (docs/metrics.md), and
 * the first of an outage at a site is logged.
 *
 * The log rule, per site: an error is logged (one `warn` line) when the site has had no error in the last
 * {@link SWALLOWED_ERROR_QUIET_MS}, or when {@link SwallowedErrors.recovered} was called for it since its last error;
 * any other error is only counted. So a Redis outage logs one line per site however long it lasts (a reconnecting
 * connection fails every 2 s at most), and `recovered` — called when a connection is ready again — ends the outage
 * with one `info` line giving the number of errors it counted.
 *
 * A `warn` line has `site`, `error` (the error's message) and `code` (when it has one); it also has `stack` unless the
 * error is an expected connection failure (a system error code such as `ECONNREFUSED`).
 */
import type { Logger } from 'pino';
import { Counter } from 'prom-client';
import { isConnectionError } from '../net/connection-errors.js';

/** How long a site must go without an error before its next error is logged again, in ms. */
export const SWALLOWED_ERROR_QUIET_MS = 60_000;

/**
 * The counter `mthds_swallowed_errors_total{site}` of this process. It belongs to no registry of its own: each
 * `Metrics` registers it in its registry.
 */
export const swallowedErrorsCounter = new Counter({
  name: 'mthds_swallowed_errors_total',
  help: 'Errors handled by carrying on (a Redis connection reconnecting, a queue relaying it, a thread pool or quarantine process failing outside a task), by site',
  labelNames: ['site'] as const,
  registers: [],
});

/** How a {@link SwallowedErrors} is built. */
export interface SwallowedErrorsOptions {
  /** Where errors are counted, labelled by `site`. */
  counter: Counter<'site'>;
  /** Where the lines go; none are written until one is given (see {@link SwallowedErrors.useLogger}). */
  logger?: Logger;
  /** Quiet period of the log rule, in ms; {@link SWALLOWED_ERROR_QUIET_MS} by default. */
  quietMs?: number;
  /** A monotonic clock in ms; `performance.now` by default. */
  now?: () => number;
}

/** One site's current outage. */
interface Outage {
  /** Errors counted since the outage began. */
  errors: number;
  /** When its last error came, on the reporter's clock (ms). */
  lastErrorAt: number;
}

/** The fields of a line on whatever was emitted: its message, its code, and its stack unless a connection failed. */
function describe(error: unknown): { error: string; code?: string; stack?: string } {
  if (!(error instanceof Error)) return { error: String(error) };
  const code = (error as { code?: unknown }).code;
  const fields = { error: error.message, ...(typeof code === 'string' ? { code } : {}) };
  return isConnectionError(error) ? fields : { ...fields, stack: error.stack ?? '' };
}

/** Counts and logs the errors of a process's sites by the rule above. */
export class SwallowedErrors {
  private logger: Logger | undefined;
  private readonly outages = new Map<string, Outage>();
  private readonly quietMs: number;
  private readonly now: () => number;

  /** @param options - the counter, the logger, the quiet period (ms) and the clock */
  constructor(private readonly options: SwallowedErrorsOptions) {
    this.logger = options.logger;
    this.quietMs = options.quietMs ?? SWALLOWED_ERROR_QUIET_MS;
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * Send the lines to this logger from now on (the process's, given at boot).
   * @param logger - the process logger; `undefined` writes no lines
   * @returns the logger it replaces, if any
   */
  useLogger(logger: Logger | undefined): Logger | undefined {
    const replaced = this.logger;
    this.logger = logger;
    return replaced;
  }

  /**
   * Count an error at a site, and log it when it begins an outage there.
   * @param site - where it was caught: a fixed string per call site (e.g. `redis:producer`), never built from data
   * @param error - what the emitter emitted
   */
  report(site: string, error: unknown): void {
    this.options.counter.inc({ site });
    const now = this.now();
    const outage = this.outages.get(site);
    if (outage && now - outage.lastErrorAt <= this.quietMs) {
      outage.errors += 1;
      outage.lastErrorAt = now;
      return;
    }
    this.outages.set(site, { errors: 1, lastErrorAt: now });
    const fields = describe(error);
    this.logger?.warn(
      { site, ...fields },
      `error:swallowed ${site}: ${fields.error} (counted in mthds_swallowed_errors_total; further errors here are not logged until it recovers)`,
    );
  }

  /**
   * A site works again (its connection is ready): its outage, if any, ends with one `info` line, and its next error
   * is logged.
   * @param site - the site, as given to {@link report}
   */
  recovered(site: string): void {
    const outage = this.outages.get(site);
    if (!outage) return;
    this.outages.delete(site);
    this.logger?.info(
      { site, errors: outage.errors },
      `error:swallowed ${site}: recovered after ${outage.errors} error(s)`,
    );
  }
}

/** The process's reporter: counts in {@link swallowedErrorsCounter}; logs once the boot gives it the process logger. */
export const swallowedErrors = new SwallowedErrors({ counter: swallowedErrorsCounter });
