import type { IncomingHttpHeaders } from 'node:http';
import { expect } from 'chai';
import { MthdsError } from '../../../shared/errors/index.js';
import {
  createAnthropicBackend,
  createGeminiBackend,
  createMockBackend,
  createOpenAiBackend,
  type InferenceBackend,
  type ObjectRequest,
} from '../../../shared/inference/index.js';
import { startFakeAnthropicServer } from '../../helpers/fake-anthropic-server.js';
import { startFakeGeminiServer } from '../../helpers/fake-gemini-server.js';
import { startFakeOpenAiServer } from '../../helpers/fake-openai-server.js';

const SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string' }, confident: { type: 'boolean' } },
  required: ['answer', 'confident'],
};

function objectRequest(signal?: AbortSignal): ObjectRequest {
  return {
    pipeCode: 'ask',
    userPrompt: 'Answer the question',
    schemaName: 'Answer',
    jsonSchema: SCHEMA,
    validate: (value) => {
      const record = value as Record<string, unknown>;
      return typeof record?.['answer'] === 'string' && typeof record['confident'] === 'boolean'
        ? []
        : ['(root) must have answer and confident'];
    },
    ...(signal ? { signal } : {}),
  };
}

/**
 * The suite every backend passes.
 * @param requestsSent - how many requests the backend's provider has received so far (none for the mock)
 */
function contract(name: string, makeBackend: () => InferenceBackend, requestsSent: () => number = () => 0): void {
  describe(`${name} backend contract`, () => {
    it('should generate text with usage', async () => {
      const result = await makeBackend().generateText({
        pipeCode: 'greet',
        userPrompt: 'Say hello',
        systemPrompt: 'Be brief',
      });
      expect(result.text).to.be.a('string').and.not.equal('');
      expect(result.usage.input_tokens).to.be.above(0);
      expect(result.usage.output_tokens).to.be.above(0);
    });

    it('should generate an object that passes validation', async () => {
      const result = await makeBackend().generateObject(objectRequest());
      expect(objectRequest().validate(result.object)).to.deep.equal([]);
    });

    it('should reject an aborted request with the abort itself, sending nothing', async () => {
      const controller = new AbortController();
      controller.abort();
      const sentBefore = requestsSent();
      let failure: unknown;
      try {
        await makeBackend().generateText({ pipeCode: 'greet', userPrompt: 'x', signal: controller.signal });
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(Error);
      // the SDK's abort as it is (DOMException AbortError, or the OpenAI / Anthropic SDK's APIUserAbortError), never an
      // inference error a caller would retry
      const abort = failure as Error;
      expect(abort.name === 'AbortError' ? abort.name : abort.constructor.name).to.be.oneOf([
        'AbortError',
        'APIUserAbortError',
      ]);
      expect(failure).to.not.be.instanceOf(MthdsError);
      expect(requestsSent(), 'requests the provider received').to.equal(sentBefore);
    });
  });
}

contract('mock', () => createMockBackend());

/** A fake provider as the provider contract uses it. */
interface ContractFake {
  baseUrl: string;
  requests: readonly { headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** A provider backend against its fake server: the fake runs for the contract's tests and is closed after them. */
function providerContract(
  name: string,
  startFake: () => Promise<ContractFake>,
  makeBackend: (baseUrl: string) => InferenceBackend,
): void {
  describe(`${name} backend against its fake provider`, () => {
    let fake: ContractFake;
    before(async () => {
      fake = await startFake();
    });
    after(async () => {
      await fake.close();
    });
    contract(
      name,
      () => makeBackend(fake.baseUrl),
      () => fake.requests.length,
    );

    it("should send the rate limits' tag of a call with each of its requests", async () => {
      const before = fake.requests.length;
      const tagged = { headers: { 'x-mthds-admission': '42' } };
      await makeBackend(fake.baseUrl).generateText({ pipeCode: 'greet', userPrompt: 'Say hello' }, tagged);
      await makeBackend(fake.baseUrl).generateObject(objectRequest(), tagged);
      const sent = fake.requests.slice(before);
      expect(sent).to.have.length(2);
      for (const request of sent) expect(request.headers['x-mthds-admission']).to.equal('42');
    });
  });
}

providerContract('openai', startFakeOpenAiServer, (baseUrl) =>
  createOpenAiBackend({ apiKey: 'k', baseUrl, model: 'fake-model', maxRetries: 0 }),
);
providerContract('anthropic', startFakeAnthropicServer, (baseUrl) =>
  createAnthropicBackend({ apiKey: 'k', baseUrl, model: 'claude-fake', defaultMaxTokens: 1024, maxRetries: 0 }),
);
providerContract(
  'gemini',
  async () => {
    const fake = await startFakeGeminiServer();
    return { baseUrl: fake.origin, requests: fake.requests, close: () => fake.close() };
  },
  (baseUrl) => createGeminiBackend({ apiKey: 'k', baseUrl, model: 'gemini-fake', maxRetries: 0 }),
);

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
    const pending = createMockBackend({ latencyMs: 60_000 }).generateText({
      pipeCode: 'p',
      userPrompt: 'x',
      signal: controller.signal,
    });
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
