/**
 * The document printer's engines on their own (docs/document-generation.md): real pdf, xlsx and docx bytes read back,
 * the
 * template engines' placeholders and strictness, the size and time bounds, and the engines that answer 501.
 */
import { expect } from 'chai';
import { Document, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import PizZip from 'pizzip';
import { createDocumentPrinter } from '../../../shared/docgen/index.js';
import type { PrintRequest } from '../../../shared/runtime/index.js';

const DATA = {
  order: { number: 'A-1', lines: [{ label: 'Tea', qty: 2 }], note: { text: 'Fragile' } },
};

function request(overrides: Partial<PrintRequest>): PrintRequest {
  return {
    pipeCode: 'print',
    engine: 'pdfkit-pdf',
    format: 'pdf',
    title: 'Order',
    data: DATA,
    maxBytes: 1024 * 1024,
    ...overrides,
  };
}

async function failure(promise: Promise<unknown>): Promise<{ error_type?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { error_type?: string; message: string };
  }
  throw new Error('expected a failure');
}

async function docxTemplate(...lines: string[]): Promise<Uint8Array> {
  const document = new Document({ sections: [{ children: lines.map((line) => new Paragraph(line)) }] });
  return new Uint8Array(await Packer.toBuffer(document));
}

describe('createDocumentPrinter', () => {
  const printer = createDocumentPrinter();

  it('should print a PDF layout: a PDF file with its title in the info dictionary', async () => {
    const bytes = Buffer.from(await printer.print(request({})));
    expect(bytes.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect(bytes.toString('latin1')).to.include('%%EOF');
  });

  it('should print an xlsx layout whose list of items is a table', async () => {
    const workbook = new ExcelJS.Workbook();
    const bytes = await printer.print(request({ engine: 'exceljs-xlsx', format: 'xlsx' }));
    await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
    const rows = workbook.getWorksheet('Order')?.getSheetValues() ?? [];
    expect(rows.flat().filter((value) => value !== undefined && value !== null)).to.include.members([
      'Number',
      'A-1',
      '  1.',
      'Fragile',
    ]);
    const table = await printer.print(
      request({ engine: 'exceljs-xlsx', format: 'xlsx', data: { lines: DATA.order.lines } }),
    );
    const tableBook = new ExcelJS.Workbook();
    await tableBook.xlsx.load(Buffer.from(table) as unknown as ArrayBuffer);
    const sheet = tableBook.getWorksheet('Lines');
    expect(sheet?.getRow(1).values).to.deep.equal([undefined, 'Label', 'Qty']);
    expect(sheet?.getRow(2).values).to.deep.equal([undefined, 'Tea', 2]);
  });

  it('should print a docx layout holding the data', async () => {
    const bytes = await printer.print(request({ engine: 'docx-docx', format: 'docx' }));
    const xml = new PizZip(bytes).file('word/document.xml')?.asText() ?? '';
    expect(xml).to.include('A-1').and.to.include('Fragile');
  });

  it('should fill a docx template and refuse a tag naming nothing or a file that is no docx', async () => {
    const template = await docxTemplate('No {{ order.number }}: {{ order.note }}');
    const bytes = await printer.print(
      request({ engine: 'docxtemplater-docx', format: 'docx', templateFile: template }),
    );
    expect(new PizZip(bytes).file('word/document.xml')?.asText()).to.include('No A-1: Fragile');
    const missing = await failure(
      printer.print(
        request({
          engine: 'docxtemplater-docx',
          format: 'docx',
          templateFile: await docxTemplate('{{ order.missing }}'),
        }),
      ),
    );
    expect(missing.error_type).to.equal('PipeDocGenUndefinedValueError');
    expect(missing.message).to.include('{{ order.missing }}');
    const notDocx = await failure(
      printer.print(request({ engine: 'docxtemplater-docx', format: 'docx', templateFile: new Uint8Array([1, 2]) })),
    );
    expect(notDocx.error_type).to.equal('PipeDocGenRenderError');
  });

  it('should fill an xlsx template, typed when a cell is one placeholder, and refuse a placeholder naming nothing', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('S');
    sheet.getCell('A1').value = 'Order {{ order.number }} ({{ order.note }})';
    sheet.getCell('A2').value = '{{order.lines}}';
    const template = new Uint8Array(await workbook.xlsx.writeBuffer());
    const bytes = await printer.print(request({ engine: 'exceljs-xlsx', format: 'xlsx', templateFile: template }));
    const filled = new ExcelJS.Workbook();
    await filled.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
    expect(filled.getWorksheet('S')?.getCell('A1').value).to.equal('Order A-1 (Fragile)');
    expect(filled.getWorksheet('S')?.getCell('A2').value).to.equal('[{"label":"Tea","qty":2}]');
    sheet.getCell('A3').value = '{{ order.nothing }}';
    const broken = new Uint8Array(await workbook.xlsx.writeBuffer());
    const missing = await failure(
      printer.print(request({ engine: 'exceljs-xlsx', format: 'xlsx', templateFile: broken })),
    );
    expect(missing.error_type).to.equal('PipeDocGenUndefinedValueError');
    expect(missing.message).to.include('S!A3');
  });

  it('should refuse a file over its byte bound and a print over its time bound', async () => {
    const big = await failure(printer.print(request({ maxBytes: 100 })));
    expect(big.error_type).to.equal('PipeDocGenRenderError');
    const lines = Array.from({ length: 5000 }, (_, index) => ({ label: `line ${index}`, qty: index }));
    const slow = await failure(
      createDocumentPrinter({ timeoutMs: 1 }).print(request({ engine: 'docx-docx', format: 'docx', data: { lines } })),
    );
    expect(slow.error_type).to.equal('PipeDocGenRenderError');
    expect(slow.message).to.match(/took longer than 1 ms/);
  });

  it('should answer PipeFeatureNotSupportedError for pdf from HTML, pptx and an unknown engine', async () => {
    for (const engine of ['chromium-pdf', 'pptx-template', 'nope']) {
      const error = await failure(printer.print(request({ engine, html: '<p>x</p>' })));
      expect(error.error_type, engine).to.equal('PipeFeatureNotSupportedError');
    }
    expect(printer.hasEngine('pdfkit-pdf')).to.equal(true);
    expect(printer.hasEngine('nope')).to.equal(false);
  });
});
