import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { TEST_STORAGE_DIR } from '../helpers/config-dir.js';
import { corpusText } from '../helpers/corpus.js';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';
import { bundleB64, symlinkEntry, withDeclaredSize, zipOf } from '../helpers/zip.js';

const SAMPLE_INPUTS = new URL('../../../shared/corpus/methods/_sample-inputs/cv-analyzer/', import.meta.url);
const CV_PDF = 'inputs/acme_cv_software_engineer.pdf';
const OFFER_PDF = 'inputs/acme_job_offer_engineer.pdf';

/** The cv_analyzer package as published, with the sample PDFs at the paths its sample inputs name. */
function cvAnalyzerBundle(): Record<string, string | Uint8Array> {
  return {
    'METHODS.toml': corpusText('methods/cv_analyzer/METHODS.toml'),
    'cv_analyzer.mthds': corpusText('methods/cv_analyzer/cv_analyzer.mthds'),
    [CV_PDF]: new Uint8Array(readFileSync(new URL(CV_PDF, SAMPLE_INPUTS))),
    [OFFER_PDF]: new Uint8Array(readFileSync(new URL(OFFER_PDF, SAMPLE_INPUTS))),
  };
}

/** The sample inputs exactly as published: documents named by path relative to the package. */
const sampleInputs = () =>
  JSON.parse(readFileSync(new URL('inputs.json', SAMPLE_INPUTS), 'utf8')) as Record<string, unknown>;

const textDocument = (url: string) => ({ concept: 'native.Document', content: { url } });

describe('whole-bundle transports on the run routes (bundle_b64 / files)', function () {
  this.timeout(30000);
  let scratch: string;
  let savedTmpdir: string | undefined;

  // Every request of this file runs with TMPDIR pointing at an empty directory, which must stay empty: bundles are
  // read and run in memory, so nothing is written to a temporary directory, on success or on refusal. (The one entry
  // allowed is `tsx-<uid>`, the TypeScript loader's own cache, which a PDF worker thread starting under tsx creates.)
  beforeEach(() => {
    savedTmpdir = process.env['TMPDIR'];
    scratch = mkdtempSync(join(tmpdir(), 'bundle-transport-'));
    process.env['TMPDIR'] = scratch;
  });
  afterEach(() => {
    expect(readdirSync(scratch).filter((name) => !/^tsx-\d+$/.test(name))).to.deep.equal([]);
    if (savedTmpdir === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = savedTmpdir;
    rmSync(scratch, { recursive: true, force: true });
  });

  describe('served runs (direct orchestration)', () => {
    const app = buildTestApp();

    it('should run the cv_analyzer package sent as bundle_b64, extracting the PDFs its inputs name by path', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ bundle_b64: bundleB64(cvAnalyzerBundle()), inputs: sampleInputs() });
      expect(response.status, JSON.stringify(response.body).slice(0, 400)).to.equal(200);
      expect(response.body.state).to.equal('COMPLETED');
      const { root } = response.body.pipe_output.working_memory;
      expect(root.cv.content).to.deep.equal({ url: CV_PDF, mime_type: 'application/pdf' });
      expect(root.cv_pages.content.items[0].text_and_images.text.text).to.match(
        /^MARIE DUPONT\nSenior Software Engineer/,
      );
      expect(root.job_offer_pages.content.items[0].text_and_images.text.text).to.match(
        /^JOB OFFER\nSenior Backend Engineer/,
      );
      expect(root.match_result.concept.code).to.equal('MatchResult');
    });

    it('should run a files bundle whose documents are text files named by path (./ and // normalised)', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          files: {
            'method/cv_analyzer.mthds': corpusText('methods/cv_analyzer/cv_analyzer.mthds'),
            'docs/cv.txt': 'Ada Lovelace\nAnalytical engine programmer',
            'docs/offer.txt': 'Wanted: a programmer',
          },
          pipe_code: 'extract_cv',
          inputs: { cv: textDocument('./docs//cv.txt') },
        })
        .expect(200);
      const pages = response.body.pipe_output.working_memory.root.main_stuff.content.items;
      expect(pages).to.deep.equal([
        {
          text_and_images: { text: { text: 'Ada Lovelace\nAnalytical engine programmer' }, images: [] },
          page_view: null,
        },
      ]);
    });

    it("should default to the bundles' main_pipe and name each bundle by its path in validation errors", async () => {
      const served = await request(app)
        .post('/v1/execute')
        .send({
          files: {
            'a/cv_analyzer.mthds': corpusText('methods/cv_analyzer/cv_analyzer.mthds'),
            'docs/cv.txt': 'CV',
            'docs/offer.txt': 'Offer',
          },
          inputs: { cv: textDocument('docs/cv.txt'), job_offer: textDocument('docs/offer.txt') },
        })
        .expect(200);
      expect(Object.keys(served.body.pipe_output.working_memory.root)).to.include.members([
        'cv_pages',
        'job_offer_pages',
        'match_result',
      ]);
      const refused = await request(app)
        .post('/v1/execute')
        .send({
          files: {
            'ok/hello.mthds': corpusText('pipelex-api-samples/hello_greeting.mthds'),
            'broken/unknown.mthds': corpusText('pipelex-api-samples/invalid/unknown_concept.mthds'),
          },
        })
        .expect(422);
      expect(refused.body.error_type).to.equal('ValidateBundleError');
      expect(refused.body.validation_errors.map((item: { source: string }) => item.source)).to.include(
        'broken/unknown.mthds',
      );
    });

    it('should ignore requirements.txt (never installed, not a library file)', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          files: {
            'cv.mthds': corpusText('methods/cv_analyzer/cv_analyzer.mthds'),
            'requirements.txt': 'requests==2.0\n',
          },
          pipe_code: 'extract_cv',
          inputs: { cv: textDocument('requirements.txt') },
        })
        .expect(422);
      expect(response.body).to.include({
        error_type: 'StuffFactoryError',
        detail:
          "Pipe 'extract_cv': the document 'requirements.txt' names no file of the submitted bundle (it has no files besides its .mthds).",
      });
    });

    for (const url of ['docs/missing.pdf', '../cv_analyzer.mthds', '/etc/passwd']) {
      it(`should refuse a document path that names no file of the bundle: ${url}`, async () => {
        const response = await request(app)
          .post('/v1/execute')
          .send({
            files: { 'm/cv.mthds': corpusText('methods/cv_analyzer/cv_analyzer.mthds'), 'docs/cv.txt': 'CV' },
            pipe_code: 'extract_cv',
            inputs: { cv: textDocument(url) },
          })
          .expect(422);
        expect(response.body).to.include({
          error_type: 'StuffFactoryError',
          detail: `Pipe 'extract_cv': the document '${url}' names no file of the submitted bundle (its files: docs/cv.txt).`,
        });
      });
    }
  });

  describe('library files as PipeLLM attachments (fake OpenAI server on 127.0.0.1)', () => {
    let fake: FakeOpenAiServer;
    beforeEach(async () => {
      fake = await startFakeOpenAiServer();
    });
    afterEach(async () => {
      await fake.close();
    });

    it('should attach an image named by bundle path as a data: URL typed from its extension', async () => {
      const vision = [
        'domain = "vision"',
        'main_pipe = "describe"',
        '[pipe.describe]',
        'type = "PipeLLM"',
        'description = "Describe"',
        'inputs = { photo = "Image" }',
        'output = "Text"',
        'prompt = "Describe $photo."',
      ].join('\n');
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      const app = buildTestApp({
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: fake.baseUrl,
        INFERENCE_MAX_RETRIES: '0',
      });
      const response = await request(app)
        .post('/v1/execute')
        .send({
          bundle_b64: bundleB64({ 'vision.mthds': vision, 'img/photo.png': png }),
          inputs: { photo: { concept: 'Image', content: { url: 'img/photo.png' } } },
        });
      expect(response.status, JSON.stringify(response.body).slice(0, 400)).to.equal(200);
      const content = fake.requests[0]!.body.messages![0]!.content as unknown as {
        type: string;
        image_url?: { url: string };
      }[];
      expect(content[1]).to.deep.include({ type: 'image_url' });
      expect(content[1]!.image_url!.url).to.equal(`data:image/png;base64,${Buffer.from(png).toString('base64')}`);
      expect(response.body.pipe_output.working_memory.root.photo.content).to.deep.equal({ url: 'img/photo.png' });
    });
  });

  describe('queue mode (bullmq orchestrator, in-process workers, real Redis)', () => {
    let deployment: QueueDeployment;
    beforeEach(() => {
      deployment = startQueueDeployment();
    });
    afterEach(async () => {
      await deployment.close();
    });

    it('should carry the library files to the worker in the run job payload (execute)', async () => {
      const response = await request(deployment.app)
        .post('/v1/execute')
        .send({ bundle_b64: bundleB64(cvAnalyzerBundle()), inputs: sampleInputs() });
      expect(response.status, JSON.stringify(response.body).slice(0, 400)).to.equal(200);
      const { root } = response.body.pipe_output.working_memory;
      expect(root.cv_pages.content.items[0].text_and_images.text.text).to.match(
        /^MARIE DUPONT\nSenior Software Engineer/,
      );
      expect(root.job_offer_pages.content.items[0].text_and_images.text.text).to.match(
        /^JOB OFFER\nSenior Backend Engineer/,
      );
    });

    it('should run a started files bundle on a worker, its payload holding only the library files', async () => {
      const ack = await request(deployment.app)
        .post('/v1/start')
        .send({
          files: {
            'cv.mthds': corpusText('methods/cv_analyzer/cv_analyzer.mthds'),
            'docs/cv.txt': 'Grace Hopper',
            'requirements.txt': 'x',
          },
          pipe_code: 'extract_cv',
          inputs: { cv: textDocument('docs/cv.txt') },
        })
        .expect(202);
      const runId = ack.body.pipeline_run_id as string;
      await pollUntil(
        () =>
          request(deployment.app)
            .get(`/v1/runs/${runId}/status`)
            .then((response) => response.body as { status: string }),
        (body) => body.status === 'COMPLETED',
      );
      const results = await request(deployment.app).get(`/v1/runs/${runId}/results`).expect(200);
      expect(
        results.body.pipe_output.working_memory.root.main_stuff.content.items[0].text_and_images.text,
      ).to.deep.equal({ text: 'Grace Hopper' });
      const job = await deployment.backend.runQueue.queue.getJob(ack.body.workflow_id);
      expect(job?.data.library_files).to.equal(undefined);
      const asset = `${createHash('sha256').update('Grace Hopper').digest('hex')}.txt`;
      expect(job?.data.library_file_objects).to.deep.equal({ 'docs/cv.txt': asset });
      const stored = readFileSync(join(TEST_STORAGE_DIR, 'single-tenant', 'assets', asset), 'utf8');
      expect(stored).to.equal('Grace Hopper');
      expect(job?.data.sources).to.deep.equal([
        { content: corpusText('methods/cv_analyzer/cv_analyzer.mthds'), source: 'cv.mthds' },
      ]);
    });

    it('should refuse a hostile archive before enqueueing anything', async () => {
      const response = await request(deployment.app)
        .post('/v1/start')
        .send({ bundle_b64: bundleB64({ 'a.mthds': 'x', '../evil.txt': 'x' }) })
        .expect(422);
      expect(response.body.error_type).to.equal('InvalidBundle');
      expect(await deployment.backend.runQueue.counts()).to.include({ waiting: 0, active: 0, completed: 0 });
    });
  });

  describe('refusals', () => {
    const app = buildTestApp({ MAX_BUNDLE_FILES: '4', MAX_BUNDLE_TOTAL_KIB: '64' });
    const hello = corpusText('pipelex-api-samples/hello_greeting.mthds');
    const refused = (body: Record<string, unknown>, status: number) =>
      request(app)
        .post('/v1/execute')
        .send({ inputs: { name: 'Ada' }, ...body })
        .expect(status)
        .expect('content-type', /application\/problem\+json/)
        .then((response) => response.body as Record<string, unknown>);
    const problem = (status: number, errorType: string, detail: string) => ({
      status,
      error_type: errorType,
      detail,
      retryable: false,
      instance: '/v1/execute',
    });

    it('should refuse bundle_b64 and files together with 422 InvalidBundle', async () => {
      const body = await refused({ bundle_b64: bundleB64({ 'a.mthds': hello }), files: { 'a.mthds': hello } }, 422);
      expect(body).to.include(
        problem(422, 'InvalidBundle', 'bundle_b64 and files are mutually exclusive; send the bundle one way.'),
      );
      expect(body['error_domain']).to.equal('input');
    });

    for (const [label, text] of [
      ['a character outside the alphabet', 'UEsDBA*='],
      ['missing padding', 'YWJjZA'],
      ['whitespace', 'YWJj\nZA=='],
      ['the URL-safe alphabet', 'YW-_'],
    ] as const) {
      it(`should refuse bundle_b64 with ${label} with 400 InvalidBase64`, async () => {
        expect(await refused({ bundle_b64: text }, 400)).to.include(
          problem(400, 'InvalidBase64', 'bundle_b64 is not valid base64.'),
        );
      });
    }

    it('should refuse a bundle_b64 that is not a zip with 422', async () => {
      expect(await refused({ bundle_b64: Buffer.from('not a zip archive').toString('base64') }, 422)).to.include(
        problem(422, 'InvalidBundle', 'bundle_b64 is not a valid zip archive.'),
      );
    });

    it('should refuse a bundle_b64 longer than the size ceiling allows with 413, before decoding', async () => {
      expect(await refused({ bundle_b64: 'A'.repeat(Math.floor((64 * 1024 * 4) / 3) + 8) }, 413)).to.include(
        problem(413, 'PayloadTooLarge', 'bundle_b64 exceeds the 64 KiB compressed-size limit.'),
      );
    });

    const names: [string, string, string][] = [
      ['zip-slip', '../evil.mthds', 'Bundle entry "../evil.mthds" is refused: it has a \'..\' segment.'],
      ['a nested ..', 'a/../../evil.mthds', 'Bundle entry "a/../../evil.mthds" is refused: it has a \'..\' segment.'],
      ['an absolute path', '/etc/evil.mthds', 'Bundle entry "/etc/evil.mthds" is refused: it is an absolute path.'],
      ['a drive letter', 'C:/evil.mthds', 'Bundle entry "C:/evil.mthds" is refused: it contains \':\'.'],
      [
        'a backslash',
        'a\\evil.mthds',
        'Bundle entry "a\\\\evil.mthds" is refused: it contains a backslash (use / as the separator).',
      ],
    ];
    for (const [label, name, detail] of names) {
      it(`should refuse a zip entry with ${label} with 422`, async () => {
        expect(await refused({ bundle_b64: bundleB64({ 'ok.mthds': hello, [name]: hello }) }, 422)).to.include(
          problem(422, 'InvalidBundle', detail),
        );
      });
      it(`should refuse a files entry with ${label} with 422`, async () => {
        expect(await refused({ files: { 'ok.mthds': hello, [name]: hello } }, 422)).to.include(
          problem(422, 'InvalidBundle', detail),
        );
      });
    }

    it('should refuse a files entry with no file name with 422', async () => {
      expect(await refused({ files: { 'ok.mthds': hello, 'docs/': 'x' } }, 422)).to.include(
        problem(422, 'InvalidBundle', 'Bundle entry "docs/" is refused: it has no file name.'),
      );
    });

    it('should refuse a symlink entry with 422', async () => {
      expect(
        await refused(
          { bundle_b64: bundleB64({ 'ok.mthds': hello, 'docs/cv.pdf': symlinkEntry('/etc/passwd') }) },
          422,
        ),
      ).to.include(problem(422, 'InvalidBundle', 'Bundle entry "docs/cv.pdf" is refused: it is a symbolic link.'));
    });

    it('should skip directory entries and count only files against MAX_BUNDLE_FILES', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          bundle_b64: bundleB64({
            'a/': '',
            'b/': '',
            'c/': '',
            'a/hello.mthds': hello,
            'a/x.txt': 'x',
            'b/y.txt': 'y',
            'c/z.txt': 'z',
          }),
          inputs: { name: 'Ada' },
        });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
    });

    it('should refuse more zip entries than MAX_BUNDLE_FILES with 413', async () => {
      const entries = Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`f${index}.mthds`, hello]));
      expect(await refused({ bundle_b64: bundleB64(entries) }, 413)).to.include(
        problem(413, 'PayloadTooLarge', 'Bundle exceeds the 4-file limit (got 5).'),
      );
    });

    it('should refuse more files than MAX_BUNDLE_FILES with 413', async () => {
      const files = Object.fromEntries(Array.from({ length: 6 }, (_, index) => [`f${index}.mthds`, hello]));
      expect(await refused({ files }, 413)).to.include(
        problem(413, 'PayloadTooLarge', 'Bundle exceeds the 4-file limit (got 6).'),
      );
    });

    it('should refuse a zip bomb by its declared decompressed size with 413', async () => {
      const bomb = zipOf({ 'ok.mthds': hello, 'bomb.txt': new Uint8Array(1024 * 1024) });
      expect(bomb.length).to.be.below(4096);
      expect(await refused({ bundle_b64: bomb.toString('base64') }, 413)).to.include(
        problem(413, 'PayloadTooLarge', 'Bundle exceeds the 64 KiB decompressed-size limit.'),
      );
    });

    it('should refuse a zip bomb whose headers under-declare its size with 422, while inflating', async () => {
      const bomb = withDeclaredSize(zipOf({ 'bomb.mthds': new Uint8Array(1024 * 1024) }), 100);
      expect(await refused({ bundle_b64: bomb.toString('base64') }, 422)).to.include(
        problem(
          422,
          'InvalidBundle',
          'Bundle entry "bomb.mthds" is refused: it inflates to more than the 100 bytes its header declares.',
        ),
      );
    });

    it('should refuse files over MAX_BUNDLE_TOTAL_KIB with 413', async () => {
      expect(await refused({ files: { 'ok.mthds': hello, 'big.txt': 'x'.repeat(64 * 1024) } }, 413)).to.include(
        problem(413, 'PayloadTooLarge', 'Bundle exceeds the 64 KiB decompressed-size limit.'),
      );
    });

    it('should refuse custom Python with 403 CustomCodeRequiresSandbox, by either transport', async () => {
      const detail = 'This bundle ships custom Python (.py); running it requires a sandbox-hosted deployment.';
      expect(
        await refused({ bundle_b64: bundleB64({ 'ok.mthds': hello, 'structures/models.py': 'import os\n' }) }, 403),
      ).to.include(problem(403, 'CustomCodeRequiresSandbox', detail));
      expect(await refused({ files: { 'ok.mthds': hello, 'funcs.PY': 'import os\n' } }, 403)).to.include(
        problem(403, 'CustomCodeRequiresSandbox', detail),
      );
    });

    it('should refuse a bundle without any .mthds with 422', async () => {
      expect(await refused({ files: { 'README.md': '# hi' } }, 422)).to.include(
        problem(422, 'InvalidBundle', 'Method bundle contains no .mthds file.'),
      );
    });

    it('should refuse an empty bundle with 422', async () => {
      expect(await refused({ files: {} }, 422)).to.include(
        problem(422, 'InvalidBundle', 'Bundle is empty (no files).'),
      );
      expect(await refused({ bundle_b64: bundleB64({ 'empty/': '' }) }, 422)).to.include(
        problem(422, 'InvalidBundle', 'Bundle is empty (no files).'),
      );
    });

    it('should refuse a .mthds that is not UTF-8 with 422', async () => {
      expect(
        await refused({ bundle_b64: bundleB64({ 'latin1.mthds': new Uint8Array([0x64, 0x6f, 0xe9, 0x0a]) }) }, 422),
      ).to.include(problem(422, 'InvalidBundle', 'Bundle file "latin1.mthds" is not valid UTF-8 text.'));
    });

    it('should refuse a path given twice (after normalisation) with 422', async () => {
      expect(await refused({ files: { 'a.mthds': hello, './a.mthds': hello } }, 422)).to.include(
        problem(422, 'InvalidBundle', 'Bundle entry "a.mthds" appears more than once.'),
      );
    });

    it('should answer /v1/start on direct orchestration with 400 before reading the bundle', async () => {
      const response = await request(app).post('/v1/start').send({ bundle_b64: 'not base64!' }).expect(400);
      expect(response.body.error_type).to.equal('StartRequiresAsyncOrchestration');
    });

    it('should keep the inline-source exclusivity with mthds_contents (422 ValidationError)', async () => {
      expect(
        (await refused({ mthds_contents: [hello], bundle_b64: bundleB64({ 'a.mthds': hello }) }, 422))['error_type'],
      ).to.equal('ValidationError');
    });
  });
});
