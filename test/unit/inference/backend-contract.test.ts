import { expect } from 'chai';
import { createMockBackend, createOpenAiBackend, type InferenceBackend, type ObjectRequest } from '../../../shared/inference/index.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../../helpers/fake-openai-server.js';

const SCHEMA = { type: 'object', properties: { answer: { type: 'string' }, confident: { type: 'boolean' } }, required: ['answer', 'confident'] };

function objectRequest(signal?: AbortSignal): ObjectRequest {
  return {
    pipeCode: 'ask',
    userPrompt: 'Answer the question',
    schemaName: 'Answer',
    jsonSchema: SCHEMA,
    validate: (value) => {
      const record = value as Record<string, unknown>;
      return typeof record?.['answer'] === 'string' && typeof record['confident'] === 'boolean' ? [] : ['(root) must have answer and confident'];
    },
    ...(signal ? { signal } : {}),
  };
}

/** The suite every backend passes (STYLE.md rule 27). */
function contract(name: string, makeBackend: () => InferenceBackend): void {
  describe(`${name} backend contract`, () => {
    it('should generate text with usage', async () => {
      const result = await makeBackend().generateText({ pipeCode: 'greet', userPrompt: 'Say hello', systemPrompt: 'Be brief' });
      expect(result.text).to.be.a('string').and.not.equal('');
      expect(result.usage.input_tokens).to.be.above(0);
      expect(result.usage.output_tokens).to.be.above(0);
    });

    it('should generate an object that passes validation', async () => {
      const result = await makeBackend().generateObject(objectRequest());
      expect(objectRequest().validate(result.object)).to.deep.equal([]);
    });

    it('should reject an aborted request', async () => {
      const controller = new AbortController();
      controller.abort();
      let failure: unknown;
      try {
        await makeBackend().generateText({ pipeCode: 'greet', userPrompt: 'x', signal: controller.signal });
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(Error);
    });
  });
}

contract('mock', () => createMockBackend());

describe('openai backend against the fake provider', () => {
  let fake: FakeOpenAiServer;
  before(async () => {
    fake = await startFakeOpenAiServer();
  });
  after(async () => {
    await fake.close();
  });
  contract('openai', () => createOpenAiBackend({ apiKey: 'k', baseUrl: fake.baseUrl, model: 'fake-model', maxRetries: 0 }));
});

describe('mock backend', () => {
  it('should quote the prompt and say it is mock output', async () => {
    const result = await createMockBackend().generateText({ pipeCode: 'p', userPrompt: 'Write a greeting for Ada.' });
    expect(result.text).to.equal('[mock inference] Response to: "Write a greeting for Ada."');
    expect(result.usage).to.deep.equal({ model: 'mock', input_tokens: 7, output_tokens: 15 });
  });

  it('should be deterministic', async () => {
    const first = await createMockBackend().generateObject(objectRequest());
    const second = await createMockBackend().generateObject(objectRequest());
    expect(first.object).to.deep.equal(second.object);
  });

  it('should hold a call for its artificial latency and abort it', async () => {
    const controller = new AbortController();
    const pending = createMockBackend({ latencyMs: 60_000 }).generateText({ pipeCode: 'p', userPrompt: 'x', signal: controller.signal });
    controller.abort();
    let failure: unknown;
    try {
      await pending;
    } catch (error) {
      failure = error;
    }
    expect((failure as Error).name).to.equal('AbortError');
  });
});
