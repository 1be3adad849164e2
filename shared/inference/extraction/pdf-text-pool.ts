/**
 * The worker-thread pool (piscina) that runs the PDF text extractor (`pdf-text-worker.ts`), created on the first PDF.
 * Threads exit after a minute idle and never keep the process alive.
 */
import { Piscina } from 'piscina';
import { siblingModule } from '../../lifecycle/index.js';

/** Threads that parse PDFs at once. */
const MAX_THREADS = 2;
/** How long an idle thread stays, in ms. */
const IDLE_TIMEOUT_MS = 60_000;

let pool: Piscina | undefined;

/**
 * Extract the page texts of a PDF in a worker thread.
 * @param bytes - the PDF (copied to the worker)
 * @param signal - aborts the task (the run's signal)
 * @returns each page's text, in order
 * @throws what the worker throws for an unreadable PDF; an AbortError when aborted
 */
export function pdfPageTextsInWorker(bytes: Uint8Array, signal?: AbortSignal): Promise<string[]> {
  pool ??= new Piscina({
    filename: siblingModule('./pdf-text-worker', import.meta.url).href,
    maxThreads: MAX_THREADS,
    idleTimeout: IDLE_TIMEOUT_MS,
  });
  return pool.run(bytes, signal ? { signal } : {}) as Promise<string[]>;
}
