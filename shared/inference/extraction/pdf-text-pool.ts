/**
 * The PDF text pool: an {@link IsolatedPool} whose threads run PDF.js (`pdf-text-worker.ts`), so that a PDF that parses
 * for ever or grows without bound costs one thread, never the process (docs/isolation.md#pdf-text). Its heap and
 * time bounds follow from `DOCUMENT_MAX_MIB` ({@link pdfTextBounds}); threads start on the first PDF, leave after a
 * minute idle and never keep the process alive.
 */

import { type ExceededLimit, IsolatedPool } from '../../compute/isolated-pool.js';
import { ComputeBudgetExceededError } from '../../errors/index.js';
import { siblingModule } from '../../lifecycle/index.js';

/** Heap and time bounds of one PDF's text extraction. */
export interface PdfTextBounds {
  /** Heap of a thread (V8 old generation), in MiB. */
  heapMib: number;
  /** Wall-clock budget of one PDF once a thread runs it, in ms. */
  timeoutMs: number;
}

/** Heap every thread gets besides the document's share, in MiB: PDF.js itself and the standard fonts. */
const BASE_HEAP_MIB = 256;
/**
 * Heap per MiB of the largest document: the largest single value PDF.js builds from one (a string as long as the
 * document, 2 bytes a character) fits with room.
 */
const HEAP_MIB_PER_DOCUMENT_MIB = 4;
/** Time every PDF gets besides its share, in ms. */
const BASE_TIMEOUT_MS = 30_000;
/** Time per MiB of the largest document, in ms. */
const TIMEOUT_MS_PER_DOCUMENT_MIB = 1_000;
/** Threads that parse PDFs at once. */
const MAX_THREADS = 2;
/** PDFs that may wait for a thread, and the longest wait, in ms. */
const MAX_QUEUE = 1000;
const QUEUE_DEADLINE_MS = 60_000;
/** How long an idle thread stays, in ms. */
const IDLE_TIMEOUT_MS = 60_000;
/** Seconds a busy answer asks the caller to wait. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The bounds of the deployment: 256 MiB + 4 MiB of heap and 30 s + 1 s per MiB of `DOCUMENT_MAX_MIB` (456 MiB and
 * 80 s for the default 50 MiB).
 * @param maxDocumentBytes - the largest document, in bytes (`DOCUMENT_MAX_MIB`)
 */
export function pdfTextBounds(maxDocumentBytes: number): PdfTextBounds {
  const documentMib = Math.ceil(maxDocumentBytes / (1024 * 1024));
  return {
    heapMib: BASE_HEAP_MIB + HEAP_MIB_PER_DOCUMENT_MIB * documentMib,
    timeoutMs: BASE_TIMEOUT_MS + TIMEOUT_MS_PER_DOCUMENT_MIB * documentMib,
  };
}

function budgetError(limit: ExceededLimit): ComputeBudgetExceededError {
  const what = limit.kind === 'time' ? `more than ${limit.value} ms` : `more than ${limit.value} MiB of memory`;
  return new ComputeBudgetExceededError(
    `reading the PDF's text needed ${what} (the bound ${limit.setting} sets) and was stopped; send a smaller or simpler document.`,
  );
}

/** Extracts PDF page texts in isolated threads, under one set of bounds. */
export class PdfTextPool {
  private pool: IsolatedPool | undefined;

  /** @param bounds - heap and time of one extraction */
  constructor(private readonly bounds: PdfTextBounds) {}

  /**
   * Extract the page texts of a PDF in a thread.
   * @param bytes - the PDF (copied to the thread)
   * @param signal - abandons the task (the run's signal)
   * @returns each page's text, in order
   * @throws ComputeBudgetExceededError (422) when the PDF outgrew the heap or time bound; ServerBusyError (503,
   *   retryable) when 1000 PDFs already wait or the wait outlived 60 s; the error PDF.js threw, rebuilt, for an
   *   unreadable PDF; the signal's reason when aborted
   */
  pageTexts(bytes: Uint8Array, signal?: AbortSignal): Promise<string[]> {
    this.pool ??= new IsolatedPool({
      label: 'PDF text extraction',
      filename: siblingModule('./pdf-text-worker', import.meta.url),
      maxThreads: MAX_THREADS,
      maxQueue: MAX_QUEUE,
      queueDeadlineMs: QUEUE_DEADLINE_MS,
      timeoutMs: this.bounds.timeoutMs,
      timeoutSetting: 'DOCUMENT_MAX_MIB',
      heapMib: this.bounds.heapMib,
      heapSetting: 'DOCUMENT_MAX_MIB',
      idleTimeoutMs: IDLE_TIMEOUT_MS,
      retryAfterSeconds: RETRY_AFTER_SECONDS,
      budgetError,
    });
    return this.pool.run<string[]>('pageTexts', bytes, signal ? { signal } : {});
  }

  /** Stop its threads, if any (pending extractions are rejected). */
  async close(): Promise<void> {
    await this.pool?.close();
  }
}
