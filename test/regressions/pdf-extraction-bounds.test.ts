/**
 * Regression of issue 30, item 4 (PDF text extraction ran without bounds): PipeExtract parsed PDFs in a bare piscina
 * pool whose threads had no heap limit and no time budget, so a PDF that made PDF.js grow or parse for ever held a
 * thread, and the process's memory, as long as it liked. Extraction now runs in an `IsolatedPool` whose heap and time
 * bounds follow from `DOCUMENT_MAX_MIB` (docs/isolation.md#pdf-text): past either, the thread is stopped and the
 * extraction fails with a typed 422 `ComputeBudgetExceededError` naming the pipe, and the next PDF gets a fresh thread.
 * The bounds are shrunk here so that a modest PDF outgrows them.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ComputeBudgetExceededError, catalogEntry, toErrorReport } from '../../shared/errors/index.js';
import { createDocumentExtractor, type DocumentExtractor } from '../../shared/inference/index.js';
import { assemblePdf } from '../../shared/runtime/operators/blank-pdf.js';
import { failureOf } from '../helpers/inference-fixtures.js';

const LIMITS = { maxBytes: 50 * 1024 * 1024, timeoutMs: 30000, allowPrivateHosts: false, maxRedirects: 3 };
const SMALL_PDF = readFileSync(
  new URL(
    '../../../shared/corpus/methods/_sample-inputs/doc-summarizer/inputs/synthetic_contract.pdf',
    import.meta.url,
  ),
);

/**
 * A one-page PDF whose catalog holds `count` small dictionaries: 11 bytes each on the wire, an object of their own each
 * in PDF.js's heap (about 11 MB and 2 s with a 64 MiB heap for a million; the same PDF reads in a 512 MiB one), and
 * never one large allocation, which would stop the process rather than the thread (docs/isolation.md).
 */
function heavyPdf(count: number): Buffer {
  const pdf = assemblePdf([
    `<< /Type /Catalog /Pages 2 0 R /Heavy [${'<< /A 1 >> '.repeat(count)}] >>`,
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ]);
  return Buffer.from(pdf, 'latin1');
}

const dataUrl = (bytes: Buffer) => `data:application/pdf;base64,${bytes.toString('base64')}`;

async function extractionFailure(extractor: DocumentExtractor, pdf: Buffer): Promise<Record<string, unknown>> {
  const error = await failureOf(extractor.extractPages({ pipeCode: 'read_contract', document: { url: dataUrl(pdf) } }));
  expect(error).to.be.instanceOf(ComputeBudgetExceededError);
  const { type_uri: _uri, title: _title, ...report } = toErrorReport(error, '');
  return { status: catalogEntry(report.error_type)?.status, ...report };
}

async function readsSmallPdf(extractor: DocumentExtractor): Promise<string[]> {
  const { pages } = await extractor.extractPages({ pipeCode: 'read_contract', document: { url: dataUrl(SMALL_PDF) } });
  return pages.map((page) => page.text.split('\n')[0] ?? '');
}

describe('regression: PDF text extraction runs under a heap and a time bound (issue 30)', function () {
  this.timeout(120000);

  it('should fail a PDF that outgrows the heap bound with a 422 naming the pipe, and read the next PDF', async () => {
    const extractor = createDocumentExtractor(LIMITS, { heapMib: 64, timeoutMs: 600000 });
    expect(await extractionFailure(extractor, heavyPdf(1_000_000))).to.deep.equal({
      status: 422,
      error_type: 'ComputeBudgetExceededError',
      message:
        "Pipe 'read_contract': reading the PDF's text needed more than 64 MiB of memory (the bound DOCUMENT_MAX_MIB sets) and was stopped; send a smaller or simpler document.",
      error_domain: 'input',
    });
    expect(await readsSmallPdf(extractor)).to.deep.equal([
      'MASTER SERVICES AGREEMENT',
      '2. FINANCIAL TERMS',
      '4. KEY PERSONNEL AND GOVERNANCE',
    ]);
  });

  it('should fail a PDF that outlasts the time bound with a 422 naming the pipe', async () => {
    const extractor = createDocumentExtractor(LIMITS, { heapMib: 256, timeoutMs: 1 });
    expect(await extractionFailure(extractor, heavyPdf(1_000_000))).to.deep.equal({
      status: 422,
      error_type: 'ComputeBudgetExceededError',
      message:
        "Pipe 'read_contract': reading the PDF's text needed more than 1 ms (the bound DOCUMENT_MAX_MIB sets) and was stopped; send a smaller or simpler document.",
      error_domain: 'input',
    });
  });
});
