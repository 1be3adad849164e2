import { expect } from 'chai';
import request from 'supertest';
import { sample } from '../helpers/corpus.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const BASE = sample('hello_greeting');
/** The 1-based line of the text appended after `BASE` and a blank line. */
const APPENDED_LINE = BASE.split('\n').length + 1;
const TAIL = 'dotted-key segments, [table] headers, inline tables and arrays each add a level.';

function dotted(segments: number): string {
  return `${BASE}\n${'a.'.repeat(segments - 1)}b = 1\n`;
}

function tooDeep(source: string): string {
  return `TOML nesting too deep (${source}, line ${APPENDED_LINE}, column 1): nesting depth exceeds 32 (MAX_TOML_DEPTH); ${TAIL}`;
}

/** A bundle of exactly 1 MiB whose prompt holds a string of nearly all of it. */
function mebibyteBundle(): string {
  const filler = 'y'.repeat(1024 * 1024 - Buffer.byteLength(BASE, 'utf8'));
  return BASE.replace('prompt      = "Write', `prompt      = "${filler}Write`);
}

describe('MAX_TOML_DEPTH and long strings on the .mthds routes (spec §8, docs/limits.md)', function () {
  this.timeout(60000);
  const app = buildTestApp();

  for (const segments of [3000, 10_000]) {
    describe(`when a bundle has a dotted key of ${segments} segments`, () => {
      const content = dotted(segments);
      const item = { category: 'blueprint_validation', message: tooDeep('deep.mthds') };

      it('should answer /v1/validate with a positioned blueprint_validation item', async () => {
        const response = await request(app)
          .post('/v1/validate')
          .send({ mthds_contents: [content], mthds_sources: ['deep.mthds'] })
          .expect(200);
        expect(response.body).to.deep.equal({
          is_valid: false,
          is_runnable: false,
          pending_signatures: [],
          validation_errors: [item],
          message: `Validation error(s): ${item.message}`,
        });
      });

      for (const [path, extra] of [
        ['/v1/resolve', {}],
        ['/v1/codegen', { kind: 'types', target: 'ts-zod' }],
        ['/v1/build/inputs', {}],
        ['/v1/build/output', {}],
        ['/v1/build/runner', {}],
      ] as const) {
        it(`should answer ${path} with the invalid verdict`, async () => {
          const response = await request(app)
            .post(path)
            .send({ files: [{ content, source: 'deep.mthds' }], ...extra })
            .expect(200);
          expect(response.body).to.deep.equal({
            is_valid: false,
            validation_errors: [item],
            message: `Validation error(s): ${item.message}`,
          });
        });
      }

      it('should answer /v1/execute with a 422 ValidateBundleError', async () => {
        const response = await request(app)
          .post('/v1/execute')
          .send({ mthds_content: content, inputs: { name: 'Ada' } })
          .expect(422);
        const message = tooDeep('bundle');
        expect(response.body).to.include({
          status: 422,
          error_type: 'ValidateBundleError',
          error_domain: 'input',
          detail: `Validation error(s): ${message}`,
        });
        expect(response.body.validation_errors).to.deep.equal([{ category: 'blueprint_validation', message }]);
      });

      const diagnostic = () => {
        const offset = Buffer.byteLength(`${BASE}\n`, 'utf8');
        const at = {
          start_offset: offset,
          end_offset: offset,
          start_line: APPENDED_LINE,
          start_col: 1,
          end_line: APPENDED_LINE,
          end_col: 1,
        };
        return { kind: 'syntax', severity: 'error', message: tooDeep('bundle'), location: null, range: at };
      };

      it('should answer /v1/lint with a positioned syntax diagnostic', async () => {
        const response = await request(app).post('/v1/lint').send({ content }).expect(200);
        expect(response.body).to.deep.equal({ diagnostics: [diagnostic()] });
      });

      it('should answer /v1/format with the text unchanged and the diagnostic', async () => {
        const response = await request(app).post('/v1/format').send({ content }).expect(200);
        expect(response.body).to.deep.equal({ formatted: content, changed: false, diagnostics: [diagnostic()] });
      });
    });
  }

  describe('when a bundle nests inline tables 5,000 deep', () => {
    const content = `${BASE}\nk = ${'{a='.repeat(5000)}1${'}'.repeat(5000)}\n`;

    it('should answer /v1/lint with a diagnostic at the bracket past the limit', async () => {
      const response = await request(app).post('/v1/lint').send({ content }).expect(200);
      expect(response.body.diagnostics).to.have.length(1);
      expect(response.body.diagnostics[0]).to.include({ kind: 'syntax', location: null });
      expect(response.body.diagnostics[0].message).to.match(
        /^TOML nesting too deep \(bundle, line \d+, column \d+\): nesting depth exceeds 32/,
      );
    });

    it('should answer /v1/validate with the invalid verdict', async () => {
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [content] })
        .expect(200);
      expect(response.body.is_valid).to.equal(false);
      expect(response.body.validation_errors[0].message).to.match(/^TOML nesting too deep/);
    });
  });

  describe('when /v1/start (queue mode) gets a bundle with a 10,000-segment dotted key', () => {
    let deployment: QueueDeployment;
    before(() => {
      deployment = startQueueDeployment({ workers: false });
    });
    after(() => deployment.close());

    it('should answer a 422 ValidateBundleError, not a 5xx', async () => {
      const response = await request(deployment.app)
        .post('/v1/start')
        .send({ mthds_content: dotted(10_000), inputs: { name: 'Ada' } })
        .expect(422);
      expect(response.body).to.include({
        error_type: 'ValidateBundleError',
        detail: `Validation error(s): ${tooDeep('bundle')}`,
      });
    });
  });

  describe('when a string fills the 1 MiB file limit', () => {
    const content = mebibyteBundle();

    it('should be exactly MAX_MTHDS_FILE_KIB', () => {
      expect(Buffer.byteLength(content, 'utf8')).to.equal(1024 * 1024);
    });

    it('should lint clean on /v1/lint', async () => {
      const response = await request(app).post('/v1/lint').send({ content }).expect(200);
      expect(response.body).to.deep.equal({ diagnostics: [] });
    });

    it('should format on /v1/format', async function () {
      this.timeout(180000);
      const response = await request(app).post('/v1/format').send({ content }).expect(200);
      expect(response.body.diagnostics).to.deep.equal([]);
      expect(response.body.formatted).to.include('y'.repeat(1000));
      expect(response.body.formatted.length).to.be.within(content.length - 16, content.length + 16);
    });

    for (const [kind, value] of [
      ['literal', (body: string) => `'${body}'`],
      ['multi-line basic', (body: string) => `"""\n${body}"""`],
      ['multi-line literal', (body: string) => `'''${body}'''`],
    ] as const) {
      it(`should lint a 1 MiB ${kind} string with the schema diagnostic of its key`, async () => {
        const text = `${BASE}extra = ${value('z'.repeat(1024 * 1024 - BASE.length - 20))}\n`;
        const response = await request(app).post('/v1/lint').send({ content: text }).expect(200);
        expect(
          response.body.diagnostics.map((item: { kind: string; location: string }) => [item.kind, item.location]),
        ).to.deep.equal([['schema', 'pipe.write_greeting.extra']]);
      });
    }
  });
});
