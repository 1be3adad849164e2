import { expect } from 'chai';
import request from 'supertest';
import { sample } from '../helpers/corpus.js';
import { type FakeAnthropicServer, messageReply, startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { buildTestApp } from '../helpers/test-app.js';

describe('GET /v1/models', () => {
  const app = buildTestApp();

  it('should list the model deck', async () => {
    const response = await request(app).get('/v1/models').expect(200);
    expect(Object.keys(response.body)).to.deep.equal(['models', 'aliases', 'waterfalls']);
    expect(Object.keys(response.body.aliases)).to.deep.equal(['extract', 'img_gen', 'judgment', 'llm', 'search']);
    expect(Object.keys(response.body.waterfalls)).to.deep.equal(['extract', 'img_gen', 'judgment', 'llm', 'search']);
    expect(response.body.models).to.deep.include({
      name: 'judgment-strict',
      type: 'judgment',
      description: 'Closed questions, answered deterministically',
    });
    expect(response.body.models).to.deep.include({
      name: 'synthesizing-data',
      type: 'llm',
      description: 'Synthetic data: varied, realistic records',
    });
    expect(response.body.models).to.deep.include({
      name: 'writing-factual',
      type: 'llm',
      description: 'Factual writing',
    });
    for (const name of ['vision', 'testing-text', 'img-gen-prompting', 'img-gen-prompting-cheap'])
      expect(response.body.models, name).to.deep.include({
        name,
        type: 'llm',
        description: {
          vision: 'Understanding images',
          'testing-text': 'Tests: text generation',
          'img-gen-prompting': 'Writing image generation prompts',
          'img-gen-prompting-cheap': 'Cheap image prompt writing',
        }[name],
      });
    expect(response.body.models).to.deep.include({
      name: 'synthesize-photo',
      type: 'img_gen',
      description: 'Synthetic photos for tests',
    });
    expect(response.body.aliases.llm).to.include({
      'default-premium-vision': 'gpt-4.1',
      'default-small-vision': 'gpt-4o-mini',
    });
  });

  it('should filter by type', async () => {
    const response = await request(app).get('/v1/models?type=search').expect(200);
    expect(new Set(response.body.models.map((model: { type: string }) => model.type))).to.deep.equal(
      new Set(['search']),
    );
    expect(Object.keys(response.body.aliases)).to.deep.equal(['search']);
  });

  it('should list the judgment category alone for ?type=judgment (protocol 0.7.0)', async () => {
    const response = await request(app).get('/v1/models?type=judgment').expect(200);
    expect(response.body).to.deep.equal({
      models: [
        { name: 'judgment-strict', type: 'judgment', description: 'Closed questions, answered deterministically' },
      ],
      aliases: { judgment: { 'default-judgment': 'gpt-4o-mini', 'premium-judgment': 'gpt-4.1' } },
      waterfalls: { judgment: {} },
    });
  });

  it('should refuse an unknown or empty type, and a repeated one', async () => {
    const unknown = await request(app).get('/v1/models?type=video').expect(422);
    expect(unknown.body).to.include({
      error_type: 'InvalidModelCategory',
      detail: 'Invalid model category. Valid values: extract, img_gen, judgment, llm, search',
    });
    await request(app).get('/v1/models?type=').expect(422);
    const repeated = await request(app).get('/v1/models?type=llm&type=search').expect(422);
    expect(repeated.body).to.include({
      error_type: 'ValidationError',
      detail: 'The `type` query parameter accepts a single value',
    });
  });
});

describe('routing a run to the Anthropic backend', () => {
  let fake: FakeAnthropicServer;
  beforeEach(async () => {
    fake = await startFakeAnthropicServer();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('should serve a claude alias through the Messages API and record the backend and cost', async () => {
    fake.respondWith(() => messageReply([{ type: 'text', text: 'Bonjour Ada.' }]));
    const bundle = sample('hello_greeting').replace(
      'output      = "Text"',
      'output      = "Text"\nmodel       = "@best-claude"',
    );
    const app = buildTestApp({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' });
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [bundle], inputs: { name: 'Ada' } })
      .expect(200);
    expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({ text: 'Bonjour Ada.' });
    expect(fake.requests[0]!.body).to.deep.include({ model: 'claude-sonnet-4-6', max_tokens: 8192, temperature: 0.5 });
    expect(response.body.pipe_output.tokens_usages[0]).to.deep.include({
      inference_model_name: 'claude-4.6-sonnet',
      inference_model_id: 'claude-sonnet-4-6',
      cost: (20 * 3 + 9 * 15) / 1_000_000,
    });
    expect(response.body.tokens_usages_backends).to.deep.equal(['anthropic']);
  });
});
