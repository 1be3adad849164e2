/**
 * The smaller operator options of pipelex-api 0.16 (docs/pipes.md) end to end: PipeLLM `templating_style`
 * (the prompt the fake OpenAI server receives), PipeImgGen `size` (the images request), PipeExtract
 * `include_raw_html` and `render_js` (a web page's HTML on the page), and their blueprint rules on /v1/validate.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { referenceErrors } from '../helpers/reference-openapi.js';
import { buildTestApp } from '../helpers/test-app.js';

const LLM_BUNDLE = (style: string) =>
  [
    'domain = "letters"',
    'main_pipe = "reply"',
    '[pipe.reply]',
    'type = "PipeLLM"',
    'description = "Replies to a letter"',
    'inputs = { letter = "Text" }',
    'output = "Text"',
    'model = "gpt-4o-mini"',
    'prompt = "Reply to @letter"',
    style,
  ].join('\n');

const IMAGE_BUNDLE = (size: string) =>
  [
    'domain = "pictures"',
    'main_pipe = "draw"',
    '[pipe.draw]',
    'type = "PipeImgGen"',
    'description = "Draw"',
    'inputs = { subject = "Text" }',
    'output = "Image"',
    'model = "gpt-image-1"',
    'prompt = "A watercolour of $subject"',
    'aspect_ratio = "portrait_2_3"',
    size,
  ].join('\n');

const EXTRACT_BUNDLE = [
  'domain = "pages"',
  'main_pipe = "read_page"',
  '[pipe.read_page]',
  'type = "PipeExtract"',
  'description = "Reads a web page"',
  'inputs = { page = "Document" }',
  'output = "Page[]"',
  'include_raw_html = true',
  'render_js = true',
].join('\n');

describe('0.16 operator options', () => {
  describe('PipeLLM templating_style, against the fake OpenAI server', () => {
    let fake: FakeOpenAiServer;
    beforeEach(async () => {
      fake = await startFakeOpenAiServer();
    });
    afterEach(async () => {
      await fake.close();
    });

    const promptOf = async (style: string) => {
      const app = buildTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' });
      await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [LLM_BUNDLE(style)], inputs: { letter: 'Dear **team**' } })
        .expect(200);
      return fake.requests.at(-1)!.body.messages!.at(-1)!.content;
    };

    it('should tag inputs in xml by default', async () => {
      expect(await promptOf('')).to.equal('Reply to <letter>\nDear **team**\n</letter>');
    });

    it('should tag inputs with the tag style written as a string', async () => {
      expect(await promptOf('templating_style = "square_brackets"')).to.equal(
        'Reply to [letter]\nDear **team**\n[/letter]',
      );
    });

    it('should tag and format inputs with a {tag_style, text_format} table', async () => {
      expect(await promptOf('templating_style = { tag_style = "no_tag", text_format = "html" }')).to.equal(
        'Reply to Dear **team**',
      );
    });
  });

  describe('PipeImgGen size, against the fake OpenAI server', () => {
    let fake: FakeOpenAiServer;
    beforeEach(async () => {
      fake = await startFakeOpenAiServer();
    });
    afterEach(async () => {
      await fake.close();
    });

    const sizeAsked = async (size: string) => {
      const app = buildTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' });
      await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [IMAGE_BUNDLE(size)], inputs: { subject: 'a lighthouse' } })
        .expect(200);
      return fake.requests[0]!.body['size'];
    };

    it('should ask exact dimensions as <width>x<height>', async () => {
      expect(await sizeAsked('size = { width = 1024, height = 1792 }')).to.equal('1024x1792');
    });

    it('should map a tier to the aspect ratio on the provider grid', async () => {
      expect(await sizeAsked('size = "2k"')).to.equal('1024x1536');
    });
  });

  describe('PipeExtract include_raw_html and render_js', () => {
    let server: Server;
    let pageUrl: string;
    before(async () => {
      server = createServer((_, response) => {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end('<html><body><h1>Opening hours</h1></body></html>');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hours`;
    });
    after(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('should keep the fetched HTML as raw_html on the page (the page is read as served)', async () => {
      const app = buildTestApp({ DOCUMENT_ALLOW_PRIVATE_HOSTS: 'true' });
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [EXTRACT_BUNDLE],
          inputs: { page: { concept: 'native.Document', content: { url: pageUrl, mime_type: 'text/html' } } },
        });
      expect(response.status, JSON.stringify(response.body).slice(0, 400)).to.equal(200);
      const [page] = response.body.pipe_output.working_memory.root.main_stuff.content.items;
      expect(page.text_and_images.raw_html).to.equal('<html><body><h1>Opening hours</h1></body></html>');
    });
  });

  describe('on /v1/validate', () => {
    const app = buildTestApp();

    it('should accept every form and keep them in bundle_blueprint, valid against the 0.16 blueprints', async () => {
      const bundles = [
        LLM_BUNDLE('templating_style = { tag_style = "ticks", text_format = "markdown" }'),
        IMAGE_BUNDLE('size = "0.5k"'),
        EXTRACT_BUNDLE,
      ];
      const blueprints: [string, string, string][] = [
        ['PipeLLMBlueprint', 'reply', 'templating_style'],
        ['PipeImgGenBlueprint', 'draw', 'size'],
        ['PipeExtractBlueprint', 'read_page', 'include_raw_html'],
      ];
      for (const [index, bundle] of bundles.entries()) {
        const response = await request(app)
          .post('/v1/validate')
          .send({ mthds_contents: [bundle] })
          .expect(200);
        expect(response.body.is_valid, JSON.stringify(response.body.validation_errors)).to.equal(true);
        const [schema, code, member] = blueprints[index]!;
        const blueprint = response.body.bundle_blueprint.pipe[code];
        expect(blueprint).to.have.property(member);
        expect(referenceErrors(schema, blueprint)).to.deep.equal([]);
      }
    });

    it('should refuse an unknown tag style, a size tier off the list and non-positive dimensions', async () => {
      for (const bundle of [
        LLM_BUNDLE('templating_style = "angle"'),
        IMAGE_BUNDLE('size = "8k"'),
        IMAGE_BUNDLE('size = { width = 0, height = 512 }'),
      ]) {
        const response = await request(app)
          .post('/v1/validate')
          .send({ mthds_contents: [bundle] })
          .expect(200);
        expect(response.body.is_valid).to.equal(false);
        expect(response.body.validation_errors[0]).to.include({ category: 'blueprint_validation' });
      }
    });
  });
});
