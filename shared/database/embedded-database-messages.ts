/**
 * The messages between a process and the worker thread holding its embedded database (`embedded-database.ts`,
 * `embedded-database-thread.ts`).
 */

/** What the owning thread sends: one query (its SQL and parameters), or the close. */
export type EmbeddedRequest = { kind: 'query'; id: number; sql: string; params: unknown[] } | { kind: 'close' };

/** An error's own fields, as sent between the threads (`name`, `message`, and a database error's `code`, …). */
export type ErrorFields = Record<string, unknown>;

/** What the thread answers: opened (or failed to), a query's rows or error, closed. */
export type EmbeddedReply =
  | { kind: 'ready' }
  | { kind: 'failed'; error: ErrorFields }
  | { kind: 'result'; id: number; rows: unknown[]; affectedRows?: number }
  | { kind: 'error'; id: number; error: ErrorFields }
  | { kind: 'closed'; error?: ErrorFields };
