/**
 * The document printer (the runtime's `DocumentPrinterPort`; docs/document-generation.md): the doc_gen engines this
 * runner
 * implements, each with a well-kept library, under a time and a size bound.
 *
 * | engine | prints | library |
 * |---|---|---|
 * | `pdfkit-pdf` | pdf.layout | pdfkit |
 * | `exceljs-xlsx` | xlsx.layout, xlsx.template_file | exceljs |
 * | `docx-docx` | docx.layout | docx |
 * | `docxtemplater-docx` | docx.template_file | docxtemplater + pizzip |
 * | `chromium-pdf` | pdf.html | none here: `PipeFeatureNotSupportedError` (501) |
 * | `pptx-template` | pptx.template_file | none here: `PipeFeatureNotSupportedError` (501) |
 *
 * `checkTemplate` runs the template checker of `exceljs-xlsx` and `docxtemplater-docx` (the dry run's; the others have
 * none).
 */
import { PipeDocGenRenderError, PipeFeatureNotSupportedError } from '../errors/index.js';
import type { DocumentPrinterPort, PrintRequest, TemplateCheckRequest } from '../runtime/index.js';

/** Longest a print may take, in ms, by default (the engines run on the calling thread between their awaits). */
const DEFAULT_PRINT_TIMEOUT_MS = 20_000;

type Engine = (request: PrintRequest) => Promise<Uint8Array> | Uint8Array;

const unsupported =
  (what: string): Engine =>
  (request) => {
    throw new PipeFeatureNotSupportedError(
      `Pipe '${request.pipeCode}': this runner does not print ${what} (engine '${request.engine}'); see docs/document-generation.md for the formats it prints.`,
    );
  };

/**
 * The engines by name. Each loads its library on its first print (pdfkit, exceljs, docx and docxtemplater weigh tens
 * of MB and most deployments never print), within that print's time budget.
 */
const ENGINES: Readonly<Record<string, Engine>> = {
  'pdfkit-pdf': async (request) => (await import('./pdf-layout.js')).printPdfLayout(request),
  'exceljs-xlsx': async (request) =>
    request.templateFile
      ? (await import('./xlsx-template.js')).printXlsxTemplate(request)
      : (await import('./xlsx-layout.js')).printXlsxLayout(request),
  'docx-docx': async (request) => (await import('./docx-layout.js')).printDocxLayout(request),
  'docxtemplater-docx': async (request) => (await import('./docx-template.js')).printDocxTemplate(request),
  'chromium-pdf': unsupported('a pdf from an HTML template'),
  'pptx-template': unsupported('pptx'),
};

/** The template checkers of the engines that fill an office `template_file` (loaded on first use, as the engines). */
const CHECKERS: Readonly<Record<string, (request: TemplateCheckRequest) => Promise<void> | void>> = {
  'exceljs-xlsx': async (request) => (await import('./xlsx-template.js')).checkXlsxTemplate(request),
  'docxtemplater-docx': async (request) => (await import('./docx-template.js')).checkDocxTemplate(request),
};

/** Options of {@link createDocumentPrinter}. */
export interface DocumentPrinterOptions {
  /** Longest a print may take, in ms ({@link DEFAULT_PRINT_TIMEOUT_MS} by default). */
  timeoutMs?: number;
}

function overTime(request: PrintRequest, timeoutMs: number): PipeDocGenRenderError {
  return new PipeDocGenRenderError(
    `Pipe '${request.pipeCode}': printing took longer than ${timeoutMs} ms and was stopped.`,
  );
}

/**
 * Run an engine under the time bound and the run's abort signal; the timer and the listener are released when it ends.
 * @throws PipeDocGenRenderError past the bound; the signal's reason when the run is aborted
 */
async function bounded(engine: Engine, request: PrintRequest, timeoutMs: number): Promise<Uint8Array> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(overTime(request, timeoutMs)), timeoutMs);
    onAbort = () => reject(request.signal?.reason);
    request.signal?.addEventListener('abort', onAbort, { once: true });
  });
  const started = performance.now();
  try {
    const bytes = await Promise.race([Promise.resolve().then(() => engine(request)), bound]);
    if (performance.now() - started > timeoutMs) throw overTime(request, timeoutMs);
    return bytes;
  } finally {
    clearTimeout(timer);
    if (onAbort) request.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The printer. A print that outlives the time bound is refused: when the timer fires between the engine's awaits, or
 * when the engine, having held the thread, finishes late.
 * @param options - the time bound
 * @returns a printer implementing every engine of the doc_gen deck (two of them answer 501)
 * @example await createDocumentPrinter().print({ pipeCode: 'p', engine: 'pdfkit-pdf', format: 'pdf', title: 'T', data:
 * {}, maxBytes: 1e6 })
 */
export function createDocumentPrinter(options: DocumentPrinterOptions = {}): DocumentPrinterPort {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PRINT_TIMEOUT_MS;
  return {
    hasEngine: (engine) => Object.hasOwn(ENGINES, engine),
    async print(request) {
      request.signal?.throwIfAborted();
      const engine = ENGINES[request.engine];
      if (!engine)
        throw new PipeFeatureNotSupportedError(`Pipe '${request.pipeCode}': no doc_gen engine '${request.engine}'.`);
      const bytes = await bounded(engine, request, timeoutMs);
      if (bytes.byteLength > request.maxBytes)
        throw new PipeDocGenRenderError(
          `Pipe '${request.pipeCode}': the printed ${request.format} is ${bytes.byteLength} bytes, over the ${request.maxBytes}-byte bound.`,
        );
      return bytes;
    },
    async checkTemplate(request) {
      await CHECKERS[request.engine]?.(request);
    },
  };
}
