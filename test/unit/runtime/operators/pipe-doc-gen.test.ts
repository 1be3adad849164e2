/**
 * PipeDocGen through the runtime API (docs/document-generation.md), with a recording printer: what the print stage
 * receives
 * (engine, title, data, composed HTML, template bytes), the Document stored, the bounds, the missing printer, and the
 * dry run's blank-PDF mock.
 */
import { expect } from 'chai';
import { LibraryFiles } from '../../../../shared/bundles/index.js';
import { createMockBackend, mockValuesForSchema } from '../../../../shared/inference/index.js';
import {
  type DocumentPrinterPort,
  type PrintRequest,
  type RuntimeDeps,
  randomIdSource,
  runPipeline,
} from '../../../../shared/runtime/index.js';
import { validLibrary } from '../../../helpers/library.js';

const BUNDLE = `
domain = "billing"

[concept.Invoice]
description = "An invoice"
[concept.Invoice.structure]
number = { type = "text", description = "Invoice number", required = true }
total = { type = "number", description = "Total due", required = true }

[concept.Receipt]
description = "A printed receipt"
refines = "Document"

[pipe.print_invoice]
type = "PipeDocGen"
description = "Prints the invoice"
inputs = { invoice = "Invoice" }
output = "Receipt"
format = "xlsx"
filename = "invoice {{ invoice.number }}"

[pipe.print_html]
type = "PipeDocGen"
description = "Prints the invoice from HTML"
inputs = { invoice = "Invoice", notes = "Markdown" }
output = "Document"
format = "pdf"
template = "<h1>{{ invoice.number }}</h1>{{ notes }}"

[pipe.fill_docx]
type = "PipeDocGen"
description = "Fills a Word template"
inputs = { invoice = "Invoice" }
output = "Document"
format = "docx"
template_file = "templates/invoice.docx"
`;

const INVOICE = { concept: 'billing.Invoice', content: { number: 'INV-7', total: 12 } };
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A printer answering `bytes` and recording its requests. */
function recordingPrinter(bytes: Uint8Array = new Uint8Array([1, 2, 3])): DocumentPrinterPort & {
  requests: PrintRequest[];
} {
  const requests: PrintRequest[] = [];
  return {
    requests,
    hasEngine: () => true,
    print: async (request) => {
      requests.push(request);
      return bytes;
    },
  };
}

const library = validLibrary([{ content: BUNDLE, source: 'billing/billing.mthds' }], { bundleFiles: undefined });

async function run(pipeCode: string, inputs: unknown, deps: Partial<RuntimeDeps>, dry = false) {
  const outcome = await runPipeline(
    { library, pipe: library.resolvePipe(pipeCode), inputs, pipelineRunId: 'run-1' },
    { inference: createMockBackend(), ids: randomIdSource(), now: Date.now, ...deps },
    dry ? { mockValues: mockValuesForSchema } : undefined,
  );
  const main = outcome.memory.mainStuff();
  if (main?.content.kind !== 'item') throw new Error('expected one document');
  return { concept: main.concept.ref, content: main.content.item };
}

describe('PipeDocGen', () => {
  it('should print through the printer and store the bytes as a data: URL in a Document', async () => {
    const printer = recordingPrinter();
    const document = await run('print_invoice', { invoice: INVOICE }, { printer });
    expect(document).to.deep.equal({
      concept: 'billing.Receipt',
      content: { url: `data:${XLSX};base64,AQID`, mime_type: XLSX, filename: 'invoice-INV-7.xlsx' },
    });
    expect(printer.requests).to.have.length(1);
    expect(printer.requests[0]).to.deep.include({
      pipeCode: 'print_invoice',
      engine: 'exceljs-xlsx',
      format: 'xlsx',
      title: 'Invoice',
      data: { invoice: { number: 'INV-7', total: 12 } },
    });
    expect(printer.requests[0]).to.not.have.any.keys('html', 'templateFile');
  });

  it('should compose the HTML template, a Markdown input converted, for the pdf.html engine', async () => {
    const printer = recordingPrinter();
    await run(
      'print_html',
      { invoice: INVOICE, notes: { concept: 'Markdown', content: { text: '*paid* <b>' } } },
      {
        printer,
      },
    );
    expect(printer.requests[0]).to.deep.include({
      engine: 'chromium-pdf',
      title: 'print_html',
      html: '<h1>INV-7</h1><p><em>paid</em> &lt;b&gt;</p>\n',
    });
  });

  it('should hand the template file of the bundle to the engine, and refuse a run without it', async () => {
    const printer = recordingPrinter();
    const template = new Uint8Array([80, 75, 3, 4]);
    const libraryFiles = new LibraryFiles(new Map([['billing/templates/invoice.docx', template]]));
    await run('fill_docx', { invoice: INVOICE }, { printer, libraryFiles });
    expect(printer.requests[0]?.engine).to.equal('docxtemplater-docx');
    expect(printer.requests[0]?.templateFile).to.deep.equal(template);
    let failure: unknown;
    await run('fill_docx', { invoice: INVOICE }, { printer }).catch((error: unknown) => {
      failure = error;
    });
    expect(failure).to.have.property('error_type', 'PipeDocGenRenderError');
    expect((failure as Error).message).to.match(/sent as text, without its files/);
  });

  it('should refuse a file over the size bound, and a run without a printer', async () => {
    const huge = recordingPrinter(new Uint8Array(16 * 1024 * 1024 + 1));
    const tooBig = await run('print_invoice', { invoice: INVOICE }, { printer: huge }).catch((error: unknown) => error);
    expect(tooBig).to.have.property('error_type', 'PipeDocGenRenderError');
    const none = await run('print_invoice', { invoice: INVOICE }, {}).catch((error: unknown) => error);
    expect(none).to.have.property('error_type', 'DocGenEngineMissingError');
  });

  it('should mint the blank PDF mock in a dry run, composing on mocks and printing nothing', async () => {
    const printer = recordingPrinter();
    const document = await run('print_invoice', null, { printer }, true);
    expect(printer.requests).to.deep.equal([]);
    expect(document.content['mime_type']).to.equal(XLSX);
    expect(document.content['filename']).to.match(/^invoice-.+\.xlsx$/);
    const url = String(document.content['url']);
    expect(url.startsWith('data:application/pdf;base64,')).to.equal(true);
    const pdf = Buffer.from(url.split(',')[1]!, 'base64').toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).to.equal(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).to.equal(true);
  });
});
