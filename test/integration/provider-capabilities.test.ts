import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { buildTestApp } from '../helpers/test-app.js';

const IMAGE_BUNDLE = [
  'domain = "pictures"',
  'main_pipe = "draw"',
  '[pipe.draw]',
  'type = "PipeImgGen"',
  'description = "Draw"',
  'inputs = { subject = "Text" }',
  'output = "Image[2]"',
  'model = "gpt-image-1"',
  'prompt = "A watercolour of $subject"',
  'aspect_ratio = "landscape_16_9"',
].join('\n');

const SEARCH_BUNDLE = [
  'domain = "research"',
  'main_pipe = "look_up"',
  '[pipe.look_up]',
  'type = "PipeSearch"',
  'description = "Search"',
  'inputs = { topic = "Text" }',
  'output = "SearchResult"',
  'model = "$deep"',
  'prompt = "Latest news about $topic"',
  'from_date = "2026-01-01"',
  'include_domains = ["example.org"]',
].join('\n');

describe('image generation and web search providers', () => {
  describe('with an OpenAI key, gpt-image-1 through the images API', () => {
    let fake: FakeOpenAiServer;
    beforeEach(async () => {
      fake = await startFakeOpenAiServer();
    });
    afterEach(async () => {
      await fake.close();
    });

    it('should generate the images with the size of the aspect ratio', async () => {
      const app = buildTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' });
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [IMAGE_BUNDLE], inputs: { subject: 'a lighthouse' } })
        .expect(200);
      expect(fake.requests[0]!.path).to.equal('/v1/images/generations');
      expect(fake.requests[0]!.body).to.deep.include({
        model: 'gpt-image-1',
        prompt: 'A watercolour of a lighthouse',
        n: 2,
        size: '1536x1024',
      });
      const items = response.body.pipe_output.working_memory.root.main_stuff.content.items;
      expect(items).to.have.length(2);
      expect(items[0]).to.deep.equal({
        url: `data:image/png;base64,${Buffer.from('fake image 1').toString('base64')}`,
        mime_type: 'image/png',
        source_prompt: 'A watercolour of a lighthouse',
        source_negative_prompt: null,
      });
      expect(response.body.pipe_output.tokens_usages[0]).to.deep.include({
        model_type: 'img_gen',
        inference_model_name: 'gpt-image-1',
      });
      expect(response.body.tokens_usages_backends).to.deep.equal(['openai']);
    });

    it('should leave other image handles to the mock', async () => {
      const app = buildTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl });
      const bundle = IMAGE_BUNDLE.replace('model = "gpt-image-1"', 'model = "$gen-image"');
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], inputs: { subject: 'a lighthouse' } })
        .expect(200);
      expect(fake.requests).to.have.length(0);
      expect(response.body.pipe_output.tokens_usages[0]).to.deep.include({
        inference_model_name: 'nano-banana-2',
      });
      expect(response.body.tokens_usages_backends).to.deep.equal(['mock']);
    });
  });

  describe('with a Linkup key, web search through the Linkup API', () => {
    let server: Server;
    let baseUrl: string;
    const received: { path: string; authorization?: string; body: Record<string, unknown> }[] = [];

    before(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push({
            path: req.url ?? '',
            authorization: req.headers.authorization,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
          });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              answer: 'Fresh news.',
              sources: [{ name: 'Example', url: 'https://example.org/a', snippet: 'A snippet' }],
            }),
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    after(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('should send a sourced-answer search at the preset depth and map the sources', async () => {
      const app = buildTestApp({ LINKUP_API_KEY: 'lk', LINKUP_BASE_URL: baseUrl });
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [SEARCH_BUNDLE], inputs: { topic: 'tides' } })
        .expect(200);
      expect(received[0]).to.deep.include({ path: '/v1/search', authorization: 'Bearer lk' });
      expect(received[0]!.body).to.deep.equal({
        q: 'Latest news about tides',
        depth: 'deep',
        outputType: 'sourcedAnswer',
        fromDate: '2026-01-01',
        includeDomains: ['example.org'],
      });
      expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({
        answer: 'Fresh news.',
        sources: [{ url: 'https://example.org/a', title: 'Example', snippet: 'A snippet' }],
      });
      expect(response.body.pipe_output.tokens_usages[0]).to.deep.include({
        model_type: 'search',
        inference_model_name: 'linkup-deep',
      });
      expect(response.body.tokens_usages_backends).to.deep.equal(['linkup']);
    });
  });
});
