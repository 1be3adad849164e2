import { expect } from 'chai';
import {
  LLMCompletionError,
  LLMCompletionRefusedError,
  LLMCompletionTruncatedError,
  LLMStructuredOutputError,
} from '../../../shared/errors/index.js';
import { createGeminiBackend, type ObjectRequest } from '../../../shared/inference/index.js';
import {
  candidateReply,
  type GenerateContentBody,
  googleError,
  startFakeGeminiServer,
} from '../../helpers/fake-gemini-server.js';
import type { FakeProviderServer } from '../../helpers/fake-provider-server.js';
import { failureOf, SCORE_REQUEST } from '../../helpers/inference-fixtures.js';

const objectRequest: ObjectRequest = SCORE_REQUEST;

describe('createGeminiBackend', () => {
  let fake: FakeProviderServer<GenerateContentBody>;
  const backend = () =>
    createGeminiBackend({ apiKey: 'secret', baseUrl: fake.origin, model: 'gemini-flash-latest', maxRetries: 0 });

  beforeEach(async () => {
    fake = await startFakeGeminiServer();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('should post generateContent for the model with the system instruction and config, and read text and usage', async () => {
    const result = await backend().generateText({
      pipeCode: 'greet',
      systemPrompt: 'Be brief',
      userPrompt: 'Say hello',
      temperature: 0.3,
      maxTokens: 256,
    });
    expect(result).to.deep.equal({
      text: 'Hello from the fake Gemini provider.',
      usage: { model: 'gemini-fake-001', input_tokens: 15, output_tokens: 6 },
    });
    const request = fake.requests[0]!;
    expect(request.method).to.equal('POST');
    expect(request.path).to.equal('/v1beta/models/gemini-flash-latest:generateContent');
    expect(request.headers['x-goog-api-key']).to.equal('secret');
    expect(request.body.contents).to.deep.equal([{ role: 'user', parts: [{ text: 'Say hello' }] }]);
    expect(request.body.systemInstruction).to.deep.include({ parts: [{ text: 'Be brief' }] });
    expect(request.body.generationConfig).to.deep.equal({ temperature: 0.3, maxOutputTokens: 256 });
  });

  it('should send data: images and documents inline and http(s) ones as file references, before the text', async () => {
    await backend().generateText({
      pipeCode: 'look',
      userPrompt: 'Describe [Image 1] and [Document 1]',
      images: [{ url: 'data:image/jpeg;base64,QUJD' }],
      documents: [{ url: 'https://example.com/cv.pdf' }],
    });
    expect(fake.requests[0]!.body.contents![0]!.parts).to.deep.equal([
      { inlineData: { mimeType: 'image/jpeg', data: 'QUJD' } },
      { fileData: { fileUri: 'https://example.com/cv.pdf', mimeType: 'application/pdf' } },
      { text: 'Describe [Image 1] and [Document 1]' },
    ]);
  });

  it('should ask for JSON with the schema and return the parsed object', async () => {
    fake.respondWith(() => candidateReply('{"value":7}'));
    const result = await backend().generateObject(objectRequest);
    expect(result.object).to.deep.equal({ value: 7 });
    expect(fake.requests[0]!.body.generationConfig).to.deep.equal({
      responseMimeType: 'application/json',
      responseJsonSchema: objectRequest.jsonSchema,
    });
  });

  it('should re-ask with the problems after a malformed answer, then accept the corrected object', async () => {
    fake.respondWith(() =>
      fake.requests.length === 1 ? candidateReply('{"value":"seven"}') : candidateReply('{"value":7}'),
    );
    const result = await backend().generateObject(objectRequest);
    expect(result.object).to.deep.equal({ value: 7 });
    expect(result.usage).to.deep.include({ input_tokens: 30, output_tokens: 12 });
    const contents = fake.requests[1]!.body.contents!;
    expect(contents.map((content) => content.role)).to.deep.equal(['user', 'model', 'user']);
    expect(contents[1]!.parts).to.deep.equal([{ text: '{"value":"seven"}' }]);
    expect(String(contents[2]!.parts[0]!['text'])).to.include('/value must be integer');
  });

  it('should give up with LLMStructuredOutputError when every answer is wrong', async () => {
    fake.respondWith(() => candidateReply('not json'));
    const error = await failureOf(backend().generateObject(objectRequest));
    expect(error).to.be.instanceOf(LLMStructuredOutputError);
    expect(error.message).to.include('after 2 attempts');
    expect(fake.requests).to.have.length(2);
  });

  it('should map 429 with a RetryInfo delay to a retryable TRANSIENT error carrying the wait', async () => {
    fake.respondWith(() =>
      googleError(429, 'RESOURCE_EXHAUSTED', [
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '31s' },
      ]),
    );
    const error = await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }));
    expect(error).to.be.instanceOf(LLMCompletionError);
    expect(error).to.include({
      error_category: 'TRANSIENT',
      retryable: true,
      provider: 'google',
      model: 'gemini-flash-latest',
    });
    expect(error.provider_metadata).to.deep.equal({
      provider: 'google',
      sdk_exception_type: 'ApiError',
      message: 'fake resource_exhausted',
      status_code: 429,
      provider_error_code: 'RESOURCE_EXHAUSTED',
      retry_after_seconds: 31,
    });
  });

  it('should map 429 without a delay to TRANSIENT with no wait, 401 to CONFIGURATION, 500 to TRANSIENT', async () => {
    fake.respondWith(() => googleError(429, 'RESOURCE_EXHAUSTED'));
    const limited = await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }));
    expect(limited.error_category).to.equal('TRANSIENT');
    expect(limited.provider_metadata).to.not.have.property('retry_after_seconds');
    fake.respondWith(() => googleError(401, 'UNAUTHENTICATED'));
    expect((await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }))).error_category).to.equal(
      'CONFIGURATION',
    );
    fake.respondWith(() => googleError(500, 'INTERNAL'));
    const failed = await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }));
    expect(failed).to.include({ error_category: 'TRANSIENT', retryable: true });
  });

  it('should map MAX_TOKENS to a truncation error and SAFETY to a refusal', async () => {
    fake.respondWith(() => candidateReply('partial', 'MAX_TOKENS'));
    expect(await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }))).to.be.instanceOf(
      LLMCompletionTruncatedError,
    );
    fake.respondWith(() => candidateReply('', 'SAFETY'));
    expect(await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }))).to.be.instanceOf(
      LLMCompletionRefusedError,
    );
  });

  it('should report an unreachable provider as TRANSIENT', async () => {
    // port 1: nothing listens there (a freed ephemeral port may be taken by another process meanwhile)
    const error = await failureOf(
      createGeminiBackend({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1', model: 'm', maxRetries: 0 }).generateText({
        pipeCode: 'p',
        userPrompt: 'x',
      }),
    );
    expect(error).to.include({ error_category: 'TRANSIENT', provider: 'google' });
  });
});
