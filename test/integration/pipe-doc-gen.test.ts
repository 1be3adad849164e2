/**
 * PipeDocGen end to end (docs/document-generation.md): `/v1/validate` of valid and invalid bundles (dry run with the
 * blank
 * PDF mock, exact validation items), and `/v1/execute` under mock inference printing real pdf, xlsx and docx files —
 * from layouts and from template files of a zipped bundle — whose bytes are read back with the libraries that wrote
 * them.
 */
import { expect } from 'chai';
import { Document, Packer, Paragraph } from 'docx';
import ExcelJS from 'exceljs';
import PizZip from 'pizzip';
import request from 'supertest';
import { buildTestApp } from '../helpers/test-app.js';
import { bundleB64 } from '../helpers/zip.js';

const HEADER = [
  'domain = "billing"',
  '[concept.Invoice]',
  'description = "An invoice"',
  '[concept.Invoice.structure]',
  'number = { type = "text", description = "Invoice number", required = true }',
  'total = { type = "number", description = "Total due", required = true }',
  'notes = { type = "text", description = "Notes in Markdown" }',
  'lines = { type = "list", item_type = "concept", item_concept_ref = "billing.InvoiceLine", description = "Lines" }',
  '[concept.InvoiceLine]',
  'description = "A line of an invoice"',
  '[concept.InvoiceLine.structure]',
  'label = { type = "text", description = "What was sold", required = true }',
  'amount = { type = "number", description = "Its price", required = true }',
];

function pipe(code: string, fields: Record<string, string>): string[] {
  return [
    `[pipe.${code}]`,
    'type = "PipeDocGen"',
    `description = "Prints ${code}"`,
    ...Object.entries(fields).map(([key, value]) => `${key} = ${value}`),
  ];
}

const INVOICE = {
  concept: 'billing.Invoice',
  content: {
    number: 'INV-42',
    total: 130.5,
    notes: 'Paid **on time**. <script>x</script> [site](https://example.com)',
    lines: [
      { label: 'Consulting', amount: 100 },
      { label: 'Travel', amount: 30.5 },
    ],
  },
};

const LAYOUTS = [
  ...HEADER,
  ...pipe('print_pdf', {
    inputs: '{ invoice = "Invoice" }',
    output: '"Document"',
    format: '"pdf"',
    filename: '"Invoice {{ invoice.number }} / ACME"',
  }),
  ...pipe('print_xlsx', { inputs: '{ invoice = "Invoice" }', output: '"Document"', format: '"xlsx"' }),
  ...pipe('print_docx', { inputs: '{ invoice = "Invoice" }', output: '"Document"', format: '"docx"' }),
  ...pipe('print_html', {
    inputs: '{ invoice = "Invoice" }',
    output: '"Document"',
    format: '"pdf"',
    template: '"<h1>{{ invoice.number }}</h1>{{ invoice.notes | markdown }}"',
  }),
].join('\n');

/** A filename reading past a scalar: statically fine (the walk stops at a scalar), undefined when composed. */
const MISSING = [
  ...HEADER,
  ...pipe('print_missing', {
    inputs: '{ invoice = "Invoice" }',
    output: '"Document"',
    format: '"pdf"',
    filename: '"{{ invoice.number.suffix }}"',
  }),
].join('\n');

function bytesOf(url: string, mimeType: string): Buffer {
  const prefix = `data:${mimeType};base64,`;
  expect(url.startsWith(prefix), url.slice(0, 80)).to.equal(true);
  return Buffer.from(url.slice(prefix.length), 'base64');
}

const MIME = {
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

describe('PipeDocGen on /v1/validate', () => {
  const app = buildTestApp();

  it('should validate printing pipes by a dry run that mints the blank PDF mock', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [LAYOUTS] })
      .expect(200);
    expect(response.body.validation_errors ?? [], JSON.stringify(response.body).slice(0, 600)).to.deep.equal([]);
    expect(response.body.is_valid).to.equal(true);
    expect(response.body.graph_spec).to.equal(null);
  });

  it('should refuse, by its dry run, a filename that prints an undefined value', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [MISSING] })
      .expect(200);
    expect(response.body.is_valid).to.equal(false);
    expect(response.body.validation_errors).to.deep.equal([
      {
        category: 'dry_run',
        error_type: 'DryRunError',
        pipe_code: 'print_missing',
        domain_code: 'billing',
        message:
          "Dry run of pipe 'billing.print_missing' failed: Pipe 'print_missing', filename: Template render error: line 1 prints a value that is undefined (a missing input, field or key).",
      },
    ]);
  });

  it('should report the static rules with exact items', async () => {
    const invalid = [
      ...HEADER,
      ...pipe('to_text', { inputs: '{ invoice = "Invoice" }', output: '"Text"', format: '"pdf"' }),
      ...pipe('to_list', { inputs: '{ invoice = "Invoice" }', output: '"Document[]"', format: '"docx"' }),
      ...pipe('xlsx_template', {
        inputs: '{ invoice = "Invoice" }',
        output: '"Document"',
        format: '"xlsx"',
        template: '"<p>{{ invoice.number }}</p>"',
      }),
      ...pipe('pptx_layout', { inputs: '{ invoice = "Invoice" }', output: '"Document"', format: '"pptx"' }),
      ...pipe('escapes', {
        inputs: '{ invoice = "Invoice" }',
        output: '"Document"',
        format: '"docx"',
        template_file: '"../secrets.docx"',
      }),
      ...pipe('from_text', {
        inputs: '{ invoice = "Invoice" }',
        output: '"Document"',
        format: '"docx"',
        template_file: '"templates/invoice.docx"',
      }),
      ...pipe('unknown_engine', {
        inputs: '{ invoice = "Invoice" }',
        output: '"Document"',
        format: '"pdf"',
        model: '"docxtpl-docx"',
      }),
      ...pipe('undeclared', {
        inputs: '{ invoice = "Invoice" }',
        output: '"Document"',
        format: '"pdf"',
        filename: '"{{ customer }}"',
      }),
      ...pipe('bad_field', {
        inputs: '{ invoice = "Invoice" }',
        output: '"Document"',
        format: '"pdf"',
        template: '"{% for line in invoice.lines %}{{ line.label }}{% endfor %}{{ invoice.totl }}"',
      }),
    ].join('\n');
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [invalid] })
      .expect(200);
    expect(response.body.is_valid).to.equal(false);
    const items = (response.body.validation_errors as Record<string, unknown>[]).map((item) => [
      item['pipe_code'],
      item['error_type'],
      item['field_path'],
    ]);
    expect(items).to.have.deep.members([
      ['to_text', 'inadequate_output_concept', 'pipe.to_text.output'],
      ['to_list', 'inadequate_output_multiplicity', 'pipe.to_list.output'],
      ['xlsx_template', 'invalid_pipe_field', 'pipe.xlsx_template.template'],
      ['pptx_layout', 'invalid_pipe_field', 'pipe.pptx_layout.template_file'],
      ['escapes', 'invalid_pipe_field', 'pipe.escapes.template_file'],
      ['escapes', 'invalid_pipe_field', 'pipe.escapes.template_file'],
      ['from_text', 'invalid_pipe_field', 'pipe.from_text.template_file'],
      ['unknown_engine', 'invalid_pipe_field', 'pipe.unknown_engine.model'],
      ['undeclared', 'missing_input_variable', 'pipe.undeclared.filename'],
      ['bad_field', 'input_stuff_spec_mismatch', 'pipe.bad_field.template'],
    ]);
    const fromText = (response.body.validation_errors as { pipe_code: string; message: string }[]).find(
      (item) => item.pipe_code === 'from_text',
    );
    expect(fromText?.message).to.match(/sent as text in mthds_contents, which has no directory/);
  });
});

describe('PipeDocGen on /v1/execute (mock inference)', function () {
  this.timeout(60000);
  const app = buildTestApp();

  async function execute(pipeCode: string, body: Record<string, unknown> = { mthds_contents: [LAYOUTS] }) {
    const response = await request(app)
      .post('/v1/execute')
      .send({ ...body, pipe_code: pipeCode, inputs: { invoice: INVOICE } });
    expect(response.status, JSON.stringify(response.body).slice(0, 800)).to.equal(200);
    expect(response.body.state).to.equal('COMPLETED');
    return response.body.pipe_output.working_memory.root.main_stuff.content as {
      url: string;
      mime_type: string;
      filename: string;
    };
  }

  it('should print a pdf layout, named by its filename template', async () => {
    const document = await execute('print_pdf');
    expect(document.mime_type).to.equal(MIME.pdf);
    expect(document.filename).to.equal('Invoice-INV-42-ACME.pdf');
    const bytes = bytesOf(document.url, MIME.pdf);
    expect(bytes.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect(bytes.subarray(-6).toString('latin1')).to.match(/%%EOF/);
  });

  it('should print an xlsx layout that exceljs reads back', async () => {
    const document = await execute('print_xlsx');
    expect(document.filename).to.equal('print_xlsx.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytesOf(document.url, MIME.xlsx) as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Invoice');
    const values = sheet
      ?.getSheetValues()
      .flat()
      .filter((value) => value !== undefined && value !== null);
    expect(values).to.include.members(['Number', 'INV-42', 'Total', 130.5, '    Label', 'Consulting']);
  });

  it('should print a docx layout whose text holds the inputs', async () => {
    const document = await execute('print_docx');
    const zip = new PizZip(bytesOf(document.url, MIME.docx));
    const xml = zip.file('word/document.xml')?.asText() ?? '';
    expect(xml).to.include('INV-42').and.to.include('Consulting');
  });

  it('should answer PipeFeatureNotSupportedError for a pdf from an HTML template', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [LAYOUTS], pipe_code: 'print_html', inputs: { invoice: INVOICE } });
    expect(response.status).to.equal(501);
    expect(response.body.error_type).to.equal('PipeFeatureNotSupportedError');
  });

  it('should refuse a template reading a value the inputs lack with PipeDocGenUndefinedValueError', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [MISSING], pipe_code: 'print_missing', inputs: { invoice: INVOICE } });
    expect(response.status, JSON.stringify(response.body)).to.equal(422);
    expect(response.body.error_type).to.equal('PipeDocGenUndefinedValueError');
  });

  it('should refuse a template_file before the run, as /v1/validate does: sent as text, or missing from the zip', async () => {
    const bundle = [
      ...HEADER,
      ...pipe('fill_docx', {
        inputs: '{ invoice = "Invoice" }',
        output: '"Document"',
        format: '"docx"',
        template_file: '"templates/invoice.docx"',
      }),
    ].join('\n');
    const asText = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [bundle], inputs: { invoice: INVOICE }, pipe_code: 'fill_docx' });
    expect(asText.status).to.equal(422);
    expect(asText.body.error_type).to.equal('ValidateBundleError');
    expect(asText.body.validation_errors[0]).to.include({
      error_type: 'invalid_pipe_field',
      field_path: 'pipe.fill_docx.template_file',
    });
    const zipped = await request(app)
      .post('/v1/execute')
      .send({
        bundle_b64: bundleB64({ 'billing/billing.mthds': bundle, 'billing/templates/other.docx': 'x' }),
        inputs: { invoice: INVOICE },
        pipe_code: 'fill_docx',
      });
    expect(zipped.status).to.equal(422);
    expect(zipped.body.validation_errors[0].message).to.equal(
      "Pipe 'fill_docx': template_file 'templates/invoice.docx' names no file of the bundle (its files: billing/templates/other.docx).",
    );
  });

  it('should fill xlsx and docx template files of a zipped bundle', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Invoice');
    sheet.getCell('A1').value = 'Invoice {{ invoice.number }}';
    sheet.getCell('B2').value = '{{ invoice.total }}';
    const xlsxTemplate = new Uint8Array(await workbook.xlsx.writeBuffer());
    const docxTemplate = new Uint8Array(
      await Packer.toBuffer(
        new Document({
          sections: [
            {
              children: [
                new Paragraph('Invoice {{ invoice.number }}'),
                new Paragraph('{{#invoice.lines}}{{ label }}: {{ amount }}{{/invoice.lines}}'),
              ],
            },
          ],
        }),
      ),
    );
    const bundle = [
      ...HEADER,
      ...pipe('fill_xlsx', {
        inputs: '{ invoice = "Invoice" }',
        output: '"Document"',
        format: '"xlsx"',
        template_file: '"templates/invoice.xlsx"',
      }),
      ...pipe('fill_docx', {
        inputs: '{ invoice = "Invoice" }',
        output: '"Document"',
        format: '"docx"',
        template_file: '"templates/invoice.docx"',
      }),
    ].join('\n');
    const body = {
      bundle_b64: bundleB64({
        'billing/billing.mthds': bundle,
        'billing/templates/invoice.xlsx': xlsxTemplate,
        'billing/templates/invoice.docx': docxTemplate,
      }),
    };
    const xlsx = await execute('fill_xlsx', body);
    const filled = new ExcelJS.Workbook();
    await filled.xlsx.load(bytesOf(xlsx.url, MIME.xlsx) as unknown as ArrayBuffer);
    expect(filled.getWorksheet('Invoice')?.getCell('A1').value).to.equal('Invoice INV-42');
    expect(filled.getWorksheet('Invoice')?.getCell('B2').value).to.equal(130.5);
    const docx = await execute('fill_docx', body);
    const xml = new PizZip(bytesOf(docx.url, MIME.docx)).file('word/document.xml')?.asText() ?? '';
    expect(xml).to.include('Invoice INV-42').and.to.include('Consulting: 100').and.to.include('Travel: 30.5');
  });
});

describe('the Markdown native through the run routes (mock inference)', () => {
  const app = buildTestApp();
  const bundle = [
    'domain = "notes"',
    'main_pipe = "page"',
    '[pipe.write]',
    'type = "PipeLLM"',
    'description = "Writes notes"',
    'inputs = { topic = "Text" }',
    'output = "Markdown"',
    'prompt = "Write about $topic"',
    '[pipe.show]',
    'type = "PipeCompose"',
    'description = "Shows notes as HTML"',
    'inputs = { notes = "Markdown" }',
    'output = "Html"',
    '[pipe.show.template]',
    'template = "<div>{{ notes }}</div>"',
    'category = "html"',
    '[pipe.page]',
    'type = "PipeSequence"',
    'description = "Writes then shows"',
    'inputs = { topic = "Text" }',
    'output = "Html"',
    'steps = [{ pipe = "write", result = "notes" }, { pipe = "show" }]',
  ].join('\n');

  it('should be a text output of PipeLLM, and print as converted HTML in an html template', async () => {
    const validated = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [bundle] })
      .expect(200);
    expect(validated.body.is_valid).to.equal(true);
    const run = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [bundle], inputs: { topic: 'tea' } })
      .expect(200);
    expect(run.body.pipe_output.working_memory.root.notes.content.text).to.match(/^\[mock inference\]/);
    const shown = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [bundle], pipe_code: 'show', inputs: { notes: '# Hi <b>' } })
      .expect(200);
    expect(shown.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({
      inner_html: '<div><h1>Hi &lt;b&gt;</h1>\n</div>',
      css_class: '',
    });
  });
});
