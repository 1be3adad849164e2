/**
 * The embedded, offline document extractor (the default of PipeExtract, like the reference's local
 * `pypdfium2-extract-pdf`): a PDF's text layer, page by page, read with Mozilla's PDF.js (`pdfjs-dist`). A plain-text
 * document is one page of text; an HTML web page is one page of its text as served, with its HTML as `rawHtml` when
 * asked (`includeRawHtml`); its JavaScript is never run (`renderJs` is not honoured: no browser engine); an image is
 * one page whose view is the image. Page images and OCR are not produced.
 * PDFs are parsed in an isolated worker thread under a heap and a time bound (`pdf-text-pool.ts`).
 * @see docs/runtime.md#pipeextract
 */
import { ComputeBudgetExceededError, ServerBusyError, StuffFactoryError } from '../../errors/index.js';
import { type FetchLimits, fetchDocument } from './fetch-document.js';
import { type PdfTextBounds, PdfTextPool, pdfTextBounds } from './pdf-text-pool.js';

/**
 * One extracted page: its text (empty when the page has no text layer), for an image document its view, for a web page
 * asked with `includeRawHtml` its HTML.
 */
export interface ExtractedPage {
  text: string;
  pageViewUrl?: string;
  rawHtml?: string;
}

/** What to extract. */
export interface ExtractRequest {
  pipeCode: string;
  /** The Document or Image content (`url`, optional `mime_type`). */
  document: { url: string; mime_type?: string | null };
  /** Web pages: keep the fetched HTML as the page's `rawHtml`. */
  includeRawHtml?: boolean;
  /**
   * Web pages: run the page's JavaScript first (accepted; this extractor has no browser engine and reads the page as
   * served).
   */
  renderJs?: boolean;
  signal?: AbortSignal;
}

/** A document extractor. */
export interface DocumentExtractor {
  readonly name: string;
  /**
   * Extract a document's pages in order.
   * @throws StuffFactoryError (422) for a document that cannot be fetched or read; ComputeBudgetExceededError (422)
   *   for a PDF whose text extraction outgrew its heap or time bound; ServerBusyError (503, retryable) when too many
   *   PDFs wait for a thread
   */
  extractPages(request: ExtractRequest): Promise<{ pages: ExtractedPage[] }>;
}

function isPdf(bytes: Uint8Array, mimeType: string): boolean {
  return mimeType === 'application/pdf' || Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}

/**
 * Create the embedded extractor.
 * @param limits - document size, fetch timeout and host policy
 * @param pdfBounds - heap and time of one PDF's text extraction; derived from `limits.maxBytes` by default
 */
export function createDocumentExtractor(
  limits: FetchLimits,
  pdfBounds: PdfTextBounds = pdfTextBounds(limits.maxBytes),
): DocumentExtractor {
  const pdfTexts = new PdfTextPool(pdfBounds);
  return {
    name: 'pdfjs-text',
    async extractPages(request) {
      const { bytes, mimeType } = await fetchDocument(request.document.url, limits, request.signal);
      const type = (request.document.mime_type ?? mimeType ?? '').toLowerCase();
      if (isPdf(bytes, type)) {
        try {
          return { pages: (await pdfTexts.pageTexts(bytes, request.signal)).map((text) => ({ text })) };
        } catch (error) {
          if (request.signal?.aborted || error instanceof ServerBusyError) throw error;
          if (error instanceof ComputeBudgetExceededError)
            throw new ComputeBudgetExceededError(`Pipe '${request.pipeCode}': ${error.message}`, { cause: error });
          throw new StuffFactoryError(
            `Pipe '${request.pipeCode}': the document is not a readable PDF (${(error as Error).message}).`,
            { cause: error },
          );
        }
      }
      if (type.startsWith('image/')) return { pages: [{ text: '', pageViewUrl: request.document.url }] };
      if (type.startsWith('text/') || type === '') {
        const text = Buffer.from(bytes).toString('utf8');
        const rawHtml = request.includeRawHtml === true && type.startsWith('text/html') ? { rawHtml: text } : {};
        return { pages: [{ text: text.trim(), ...rawHtml }] };
      }
      throw new StuffFactoryError(
        `Pipe '${request.pipeCode}': documents of type ${type} cannot be extracted (PDF, text and images can).`,
      );
    },
  };
}
