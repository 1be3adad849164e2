import { expect } from 'chai';
import {
  LLMCompletionError,
  LLMCompletionRefusedError,
  LLMCompletionTruncatedError,
  LLMStructuredOutputError,
} from '../../../shared/errors/index.js';
import { createOpenAiBackend, type ObjectRequest } from '../../../shared/inference/index.js';
import {
  completion,
  type FakeOpenAiServer,
  providerError,
  startFakeOpenAiServer,
} from '../../helpers/fake-openai-server.js';
import { failureOf, SCORE_REQUEST } from '../../helpers/inference-fixtures.js';

const request: ObjectRequest = { ...SCORE_REQUEST, temperature: 0.2, maxTokens: 50 };

describe('createOpenAiBackend', () => {
  let fake: FakeOpenAiServer;
  const backend = () =>
    createOpenAiBackend({ apiKey: 'secret', baseUrl: fake.baseUrl, model: 'gpt-test', maxRetries: 0 });

  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('should send system and user prompts, model, temperature, max_tokens and the JSON schema', async () => {
    fake.respondWith(() => completion('{"value": 3}'));
    const result = await backend().generateObject(request);
    expect(result.object).to.deep.equal({ value: 3 });
    expect(result.usage).to.deep.equal({ model: 'fake-model', input_tokens: 11, output_tokens: 7 });
    const body = fake.requests[0]!.body;
    expect(body).to.deep.include({ model: 'gpt-test', temperature: 0.2, max_tokens: 50 });
    expect(body.messages).to.deep.equal([
      { role: 'system', content: 'You score things.' },
      { role: 'user', content: 'Score this.' },
    ]);
    expect(body.response_format).to.deep.equal({
      type: 'json_schema',
      json_schema: { name: 'Score', schema: request.jsonSchema, strict: false },
    });
  });

  it('should re-ask with the problems, then give up with LLMStructuredOutputError', async () => {
    fake.respondWith(() => completion('not json'));
    const error = await failureOf(backend().generateObject(request));
    expect(error).to.be.instanceOf(LLMStructuredOutputError);
    expect(error).to.include({ error_domain: 'input', retryable: false });
    expect(fake.requests).to.have.length(2);
    expect(fake.requests[1]!.body.messages!.at(-1)!.content).to.include('the answer is not valid JSON');
  });

  it('should map 429 to a retryable TRANSIENT error with the Retry-After hint', async () => {
    fake.respondWith(() => providerError(429, 'slow down', { 'retry-after': '12' }));
    const error = await failureOf(backend().generateText(request));
    expect(error).to.be.instanceOf(LLMCompletionError);
    expect(error).to.include({
      error_domain: 'runtime',
      retryable: true,
      error_category: 'TRANSIENT',
      model: 'gpt-test',
      provider: 'openai',
    });
    expect(error.provider_metadata).to.include({
      provider: 'openai',
      status_code: 429,
      retry_after_seconds: 12,
      sdk_exception_type: 'RateLimitError',
    });
  });

  it('should read retry-after-ms', async () => {
    fake.respondWith(() => providerError(429, 'slow down', { 'retry-after-ms': '1500' }));
    const error = await failureOf(backend().generateText(request));
    expect(error.provider_metadata?.retry_after_seconds).to.equal(1.5);
  });

  it('should map 401 to CONFIGURATION in the config domain', async () => {
    fake.respondWith(() => providerError(401, 'bad key'));
    const error = await failureOf(backend().generateText(request));
    expect(error).to.include({ error_domain: 'config', retryable: false, error_category: 'CONFIGURATION' });
  });

  it('should map 400 to CONTENT and 402 to CAPACITY', async () => {
    fake.respondWith(() => providerError(400, 'bad prompt'));
    expect((await failureOf(backend().generateText(request))).error_category).to.equal('CONTENT');
    fake.respondWith(() => providerError(402, 'no credits'));
    expect((await failureOf(backend().generateText(request))).error_category).to.equal('CAPACITY');
  });

  it('should map finish_reason length and content_filter', async () => {
    fake.respondWith(() => completion('partial', 'length'));
    expect(await failureOf(backend().generateText(request))).to.be.instanceOf(LLMCompletionTruncatedError);
    fake.respondWith(() => completion('', 'content_filter'));
    expect(await failureOf(backend().generateText(request))).to.be.instanceOf(LLMCompletionRefusedError);
  });

  it('should map an unreachable provider to a TRANSIENT error', async () => {
    // port 1: nothing listens there (a freed ephemeral port may be taken by another process meanwhile)
    const error = await failureOf(
      createOpenAiBackend({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', maxRetries: 0 }).generateText(
        request,
      ),
    );
    expect(error).to.include({ error_category: 'TRANSIENT', retryable: true });
  });
});
