import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'smol-toml';
import request from 'supertest';
import { corpusText } from '../helpers/corpus.js';
import { buildTestApp, warmTestDiagnostics } from '../helpers/test-app.js';

const app = buildTestApp();

/** Every `.mthds` of the shared corpus, as paths under `corpus/`. */
function corpusBundles(): string[] {
  const root = new URL('../../../shared/corpus/', import.meta.url);
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.mthds'))
    .sort();
}

const SYNTAX_ERROR = 'pipelex-api-samples/invalid/syntax_error.mthds';

describe('POST /v1/lint', () => {
  it('should answer a clean file with no diagnostics', async () => {
    const response = await request(app)
      .post('/v1/lint')
      .send({ content: 'domain = "x"\n', source: 'x.mthds' })
      .expect(200);
    expect(response.headers['content-type']).to.equal('application/json');
    expect(response.body).to.deep.equal({ diagnostics: [] });
  });

  it('should place a syntax error at the point parsing stopped ("key = " → offset 6, column 7)', async () => {
    const response = await request(app).post('/v1/lint').send({ content: 'key = ' }).expect(200);
    expect(response.body).to.deep.equal({
      diagnostics: [
        {
          kind: 'syntax',
          severity: 'error',
          message: 'Unspecified values are invalid',
          location: null,
          range: { start_offset: 6, end_offset: 6, start_line: 1, start_col: 7, end_line: 1, end_col: 7 },
        },
      ],
    });
  });

  it('should report a key defined twice as a semantic diagnostic on the second definition', async () => {
    const response = await request(app).post('/v1/lint').send({ content: 'domain = "x"\ndomain = "y"\n' }).expect(200);
    expect(response.body.diagnostics).to.have.length(1);
    expect(response.body.diagnostics[0]).to.deep.include({ kind: 'semantic', severity: 'error', location: null });
    expect(response.body.diagnostics[0].range).to.include({ start_offset: 13, start_line: 2, start_col: 1 });
  });

  it('should agree with /v1/validate on hints, datetime and time fields and the 0.16 operator options', async () => {
    const content = [
      'domain = "agenda"',
      '[concept.Meeting]',
      'description = "A meeting"',
      'hints = { intent = "label" }',
      '[concept.Meeting.structure]',
      'starts = { type = "datetime", description = "When it starts", required = true, hints = { intent = "label" } }',
      'doors = { type = "time", description = "When the doors open" }',
      '[pipe.announce]',
      'type = "PipeLLM"',
      'description = "Announces a meeting"',
      'inputs = { meeting = "Meeting" }',
      'output = "Text"',
      'prompt = "Announce @meeting"',
      'templating_style = "square_brackets"',
    ].join('\n');
    const lint = await request(app).post('/v1/lint').send({ content }).expect(200);
    expect(lint.body).to.deep.equal({ diagnostics: [] });
    const validate = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [content] })
      .expect(200);
    expect(validate.body.is_valid, JSON.stringify(validate.body.validation_errors)).to.equal(true);
  });

  it('should give a pipe with type = "Nope" one schema diagnostic on the type value', async () => {
    const content = 'domain = "x"\n\n[pipe.p]\ntype        = "Nope"\ndescription = "d"\noutput      = "Text"\n';
    const response = await request(app).post('/v1/lint').send({ content }).expect(200);
    expect(response.body.diagnostics).to.have.length(1);
    const [diagnostic] = response.body.diagnostics;
    expect(diagnostic).to.deep.include({ kind: 'schema', severity: 'error', location: 'pipe.p.type' });
    expect(diagnostic.message).to.match(
      /^Pipe 'p', field 'type': 'Nope' is not a pipe type \(allowed: PipeLLM, .*PipeStructure, .*PipeBatch\)\.$/,
    );
    expect(diagnostic.range).to.deep.equal({
      start_offset: 37,
      end_offset: 43,
      start_line: 4,
      start_col: 15,
      end_line: 4,
      end_col: 21,
    });
    expect(content.slice(diagnostic.range.start_offset, diagnostic.range.end_offset)).to.equal('"Nope"');
  });

  it('should accept a null source', async () => {
    await request(app)
      .post('/v1/lint')
      .send({ content: 'domain = "x"\n', source: null })
      .expect(200, { diagnostics: [] });
  });

  it('should refuse a missing content with 422 ValidationError', async () => {
    const response = await request(app).post('/v1/lint').send({ source: 'x.mthds' }).expect(422);
    expect(response.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(response.body).to.include({ error_type: 'ValidationError', status: 422 });
    expect(response.body.detail).to.match(/^body\.content: /);
  });

  it('should refuse content over MAX_MTHDS_FILE_KIB (1024 by default) with 422', async () => {
    const content = `domain = "${'x'.repeat(1024 * 1024)}"\n`;
    const response = await request(app).post('/v1/lint').send({ content }).expect(422);
    expect(response.body.error_type).to.equal('ValidationError');
    expect(response.body.detail).to.contain('MTHDS file exceeds 1024 KiB limit');
  });

  it('should apply a configured MAX_MTHDS_FILE_KIB, counting UTF-8 bytes', async () => {
    const small = buildTestApp({ MAX_MTHDS_FILE_KIB: '1' });
    await request(small)
      .post('/v1/lint')
      .send({ content: 'é'.repeat(512) })
      .expect(200);
    const response = await request(small)
      .post('/v1/lint')
      .send({ content: 'é'.repeat(513) })
      .expect(422);
    expect(response.body.detail).to.contain('MTHDS file exceeds 1 KiB limit (1026 bytes)');
  });
});

describe('POST /v1/format', () => {
  before(async function () {
    this.timeout(180_000);
    await warmTestDiagnostics();
  });

  it('should format "a=1" to "a = 1\\n" with changed true', async () => {
    const response = await request(app).post('/v1/format').send({ content: 'a=1' }).expect(200);
    expect(response.headers['content-type']).to.equal('application/json');
    expect(response.body).to.deep.equal({ formatted: 'a = 1\n', changed: true, diagnostics: [] });
  });

  it('should answer changed false for formatted content', async () => {
    await request(app)
      .post('/v1/format')
      .send({ content: 'a = 1\n', options: null })
      .expect(200, { formatted: 'a = 1\n', changed: false, diagnostics: [] });
  });

  it('should align = within a table and keep comments', async () => {
    const content = '# header\ndomain="x"\n\n[pipe.p]\ntype="PipeLLM" # the type\ndescription="d"\n';
    const response = await request(app).post('/v1/format').send({ content }).expect(200);
    expect(response.body.formatted).to.equal(
      '# header\ndomain = "x"\n\n[pipe.p]\ntype        = "PipeLLM" # the type\ndescription = "d"\n',
    );
  });

  it('should return a syntax error unchanged with changed false and a syntax diagnostic', async () => {
    const content = 'key = ';
    const response = await request(app).post('/v1/format').send({ content }).expect(200);
    expect(response.body).to.deep.equal({
      formatted: content,
      changed: false,
      diagnostics: [
        {
          kind: 'syntax',
          severity: 'error',
          message: 'Unspecified values are invalid',
          location: null,
          range: { start_offset: 6, end_offset: 6, start_line: 1, start_col: 7, end_line: 1, end_col: 7 },
        },
      ],
    });
  });

  it('should apply options (align_entries false, crlf, column_width)', async () => {
    const content = 'a=1\nbbb=2\nlist = ["alpha", "beta", "gamma"]\n';
    const response = await request(app)
      .post('/v1/format')
      .send({ content, options: { align_entries: false, crlf: true, column_width: 20 } })
      .expect(200);
    expect(response.body.formatted).to.equal(
      'a = 1\r\nbbb = 2\r\nlist = [\r\n  "alpha",\r\n  "beta",\r\n  "gamma",\r\n]\r\n',
    );
  });

  it('should refuse a non-numeric column_width with 422 naming the option', async () => {
    const response = await request(app)
      .post('/v1/format')
      .send({ content: 'a = 1\n', options: { column_width: 'wide' } })
      .expect(422);
    expect(response.body).to.include({ error_type: 'ValidationError', status: 422 });
    expect(response.body.detail).to.match(/^body\.options\.column_width: /);
  });

  it('should refuse an unknown option with 422 naming it', async () => {
    const response = await request(app)
      .post('/v1/format')
      .send({ content: 'a = 1\n', options: { colum_width: 100 } })
      .expect(422);
    expect(response.body.error_type).to.equal('ValidationError');
    expect(response.body.detail).to.contain('colum_width');
  });

  it('should answer 422 naming the options when the formatter cannot lay the content out under them', async () => {
    const response = await request(app)
      .post('/v1/format')
      .send({ content: 'a = 1 # a trailing comment\nb = 2\n', options: { column_width: 5 } })
      .expect(422);
    expect(response.body).to.include({ error_type: 'ValidationError', status: 422 });
    expect(response.body.detail).to.match(
      /^body\.options: the formatter cannot lay out this content with the options \{"column_width":5\}: .*Retry with the default options, or a larger column_width\.$/,
    );
    const after = await request(app).post('/v1/format').send({ content: 'a=1' }).expect(200);
    expect(after.body).to.deep.equal({ formatted: 'a = 1\n', changed: true, diagnostics: [] });
  });

  it('should refuse an indent_string that is not whitespace', async () => {
    const response = await request(app)
      .post('/v1/format')
      .send({ content: 'a = 1\n', options: { indent_string: 'xx' } })
      .expect(422);
    expect(response.body.detail).to.match(/^body\.options\.indent_string: must be 1 to 16 spaces or tabs/);
  });

  it('should refuse oversized content with 422', async () => {
    const response = await request(buildTestApp({ MAX_MTHDS_FILE_KIB: '1' }))
      .post('/v1/format')
      .send({ content: `a = "${'x'.repeat(1100)}"\n` })
      .expect(422);
    expect(response.body.detail).to.contain('MTHDS file exceeds 1 KiB limit');
  });
});

describe('lint and format over the corpus', () => {
  const bundles = corpusBundles();

  before(async function () {
    this.timeout(180_000);
    await warmTestDiagnostics();
  });

  it('should find the corpus bundles', () => {
    expect(bundles.length).to.be.greaterThanOrEqual(18);
  });

  for (const path of bundles.filter((path) => path !== SYNTAX_ERROR)) {
    const expected = path.endsWith('bad_pipe_type.mthds') ? ['schema'] : [];
    it(`${path}: lint reports ${expected.length === 0 ? 'no error' : 'the unknown pipe type'}; format is idempotent and keeps the data`, async () => {
      const content = corpusText(path);
      const lint = await request(app).post('/v1/lint').send({ content, source: path }).expect(200);
      expect(lint.body.diagnostics.map((diagnostic: { kind: string }) => diagnostic.kind)).to.deep.equal(expected);
      const once = await request(app).post('/v1/format').send({ content }).expect(200);
      expect(once.body.diagnostics).to.deep.equal([]);
      expect(once.body.changed).to.equal(once.body.formatted !== content);
      expect(parse(once.body.formatted)).to.deep.equal(parse(content));
      const twice = await request(app).post('/v1/format').send({ content: once.body.formatted }).expect(200);
      expect(twice.body).to.deep.equal({ formatted: once.body.formatted, changed: false, diagnostics: [] });
    });
  }

  it(`${SYNTAX_ERROR}: lint gives one syntax diagnostic and format leaves it unchanged`, async () => {
    const content = corpusText(SYNTAX_ERROR);
    const lint = await request(app).post('/v1/lint').send({ content }).expect(200);
    expect(lint.body.diagnostics.map((diagnostic: { kind: string }) => diagnostic.kind)).to.deep.equal(['syntax']);
    const format = await request(app).post('/v1/format').send({ content }).expect(200);
    expect(format.body).to.deep.include({ formatted: content, changed: false });
    expect(format.body.diagnostics).to.deep.equal(lint.body.diagnostics);
  });
});
