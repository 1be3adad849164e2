/**
 * The embedded database (PGlite, docs/control-plane.md#boot-and-readiness) in a worker thread of its own, so that
 * its WebAssembly — creating the data directory at the first boot, each batch the history writer writes — never holds
 * up the requests of the process that owns it. It answers the two calls Kysely's PGlite dialect makes of a client:
 * `query` and `close`; queries run one at a time, in the order sent (the dialect holds one connection).
 */
import { Worker } from 'node:worker_threads';
import { siblingModule } from '../lifecycle/index.js';
import type { EmbeddedReply, EmbeddedRequest, ErrorFields } from './embedded-database-messages.js';

/** A query's rows, and how many rows a write changed. */
export interface EmbeddedQueryResult {
  rows: unknown[];
  affectedRows?: number;
}

/**
 * SQLSTATE `57P01` (the server shut down): what a query gets once the thread is gone, so the database-outage rules
 * (`database-outage.ts`) answer 503 `ControlPlaneUnavailableError`.
 */
const THREAD_GONE = '57P01';

/** The thread's entry module. */
const ENTRY = siblingModule('./embedded-database-thread', import.meta.url).href;

/**
 * What the thread runs first: Node 20 does not carry tsx's ESM hooks into worker threads, so a thread started from
 * the sources (the tests, `npm run dev`) registers them before it imports its entry; the compiled build needs none.
 */
const THREAD_BOOT = `const entry = ${JSON.stringify(ENTRY)};
(entry.endsWith('.ts') ? import('tsx/esm/api').then((tsx) => tsx.register()) : Promise.resolve()).then(() => import(entry));`;

/** An error sent from the thread, rebuilt with its fields (`name`, `message`, a database error's `code`, …). */
function rebuilt(fields: ErrorFields): Error {
  return Object.assign(new Error(String(fields['message'] ?? 'embedded database error')), fields);
}

/** The embedded database, in its thread. */
export class EmbeddedDatabase {
  private readonly pending = new Map<
    number,
    { resolve(result: EmbeddedQueryResult): void; reject(error: Error): void }
  >();
  private lastId = 0;
  /** Why queries fail at once: the thread ended (or was closed). */
  private gone: Error | undefined;
  private closing: Promise<void> | undefined;

  private constructor(private readonly thread: Worker) {
    thread.on('message', (reply: EmbeddedReply) => this.answer(reply));
    thread.on('error', (error) => this.end(`failed: ${error.message}`));
    thread.on('exit', (code) => this.end(`exited with status ${code}`));
  }

  /**
   * Open the database of a data directory in a new thread.
   * @param dir - the data directory (created by the database when empty)
   * @returns the open database, once its thread answered that it is ready
   * @throws the database's error when it cannot open the directory; Error when the thread dies first
   */
  static open(dir: string): Promise<EmbeddedDatabase> {
    const thread = new Worker(THREAD_BOOT, { eval: true, workerData: { dir } });
    return new Promise((resolve, reject) => {
      const settle = (outcome: () => void) => {
        thread.off('message', onMessage).off('error', onError).off('exit', onExit);
        outcome();
      };
      const onMessage = (reply: EmbeddedReply) => {
        if (reply.kind === 'ready') settle(() => resolve(new EmbeddedDatabase(thread)));
        else if (reply.kind === 'failed')
          settle(() => {
            void thread.terminate();
            reject(rebuilt(reply.error));
          });
      };
      const onError = (error: Error) => settle(() => reject(error));
      const onExit = (code: number) =>
        settle(() => reject(new Error(`the embedded database thread exited with status ${code} while opening`)));
      thread.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
  }

  /**
   * Run one query.
   * @param sql - the statement, `$1`… for its parameters
   * @param params - the parameters (structured-clonable values)
   * @returns its rows and the count of rows it changed
   * @throws the database's error (with its SQLSTATE `code`); an Error of code `57P01` once the thread is gone
   */
  query(sql: string, params: readonly unknown[] = []): Promise<EmbeddedQueryResult> {
    if (this.gone) return Promise.reject(this.gone);
    this.lastId += 1;
    const id = this.lastId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.thread.postMessage({ kind: 'query', id, sql, params: [...params] } satisfies EmbeddedRequest);
      } catch (error) {
        this.pending.delete(id);
        reject(error as Error);
      }
    });
  }

  /** Close the database, then end its thread (once; later calls wait for the same close). */
  close(): Promise<void> {
    this.closing ??= this.gone
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          this.thread.once('exit', () => resolve());
          this.thread.on('message', (reply: EmbeddedReply) => {
            if (reply.kind === 'closed') void this.thread.terminate();
          });
          this.thread.postMessage({ kind: 'close' } satisfies EmbeddedRequest);
        });
    return this.closing;
  }

  private answer(reply: EmbeddedReply): void {
    if (reply.kind !== 'result' && reply.kind !== 'error') return;
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.kind === 'error') waiting.reject(rebuilt(reply.error));
    else waiting.resolve(reply.affectedRows === undefined ? { rows: reply.rows } : reply);
  }

  private end(how: string): void {
    this.gone ??= Object.assign(new Error(`The embedded database thread ${how}.`), { code: THREAD_GONE });
    for (const waiting of this.pending.values()) waiting.reject(this.gone);
    this.pending.clear();
  }
}
