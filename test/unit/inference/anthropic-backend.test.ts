import { expect } from 'chai';
import { LLMCompletionError, LLMCompletionTruncatedError } from '../../../shared/errors/index.js';
import { createAnthropicBackend, type ObjectRequest } from '../../../shared/inference/index.js';
import {
  type FakeAnthropicServer,
  messageReply,
  startFakeAnthropicServer,
} from '../../helpers/fake-anthropic-server.js';
import { failureOf, SCORE_REQUEST } from '../../helpers/inference-fixtures.js';

const objectRequest: ObjectRequest = SCORE_REQUEST;

describe('createAnthropicBackend', () => {
  let fake: FakeAnthropicServer;
  const backend = () =>
    createAnthropicBackend({
      apiKey: 'secret',
      baseUrl: fake.baseUrl,
      model: 'claude-fake-model',
      defaultMaxTokens: 4096,
      maxRetries: 0,
    });

  beforeEach(async () => {
    fake = await startFakeAnthropicServer();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('should send system, user prompt, model and the required max_tokens, and read the text', async () => {
    const result = await backend().generateText({
      pipeCode: 'greet',
      systemPrompt: 'Be brief',
      userPrompt: 'Say hello',
      temperature: 0.3,
    });
    expect(result.text).to.equal('Hello from the fake Anthropic provider.');
    expect(result.usage).to.deep.equal({ model: 'claude-fake-model', input_tokens: 20, output_tokens: 9 });
    expect(fake.requests[0]!.path).to.equal('/v1/messages');
    expect(fake.requests[0]!.body).to.deep.include({
      model: 'claude-fake-model',
      max_tokens: 4096,
      system: 'Be brief',
      temperature: 0.3,
    });
    expect(fake.requests[0]!.body.messages).to.deep.equal([{ role: 'user', content: 'Say hello' }]);
  });

  it('should force a tool with the JSON schema for structured output', async () => {
    fake.respondWith(() =>
      messageReply([{ type: 'tool_use', id: 'toolu_1', name: 'Score', input: { value: 7 } }], 'tool_use'),
    );
    const result = await backend().generateObject(objectRequest);
    expect(result.object).to.deep.equal({ value: 7 });
    expect(fake.requests[0]!.body.tools![0]).to.deep.include({ name: 'Score', input_schema: objectRequest.jsonSchema });
    expect(fake.requests[0]!.body.tool_choice).to.deep.equal({ type: 'tool', name: 'Score' });
  });

  it('should re-ask with the problems as a tool result, then accept the corrected object', async () => {
    fake.respondWith(() =>
      fake.requests.length === 1
        ? messageReply([{ type: 'tool_use', id: 'toolu_1', name: 'Score', input: { value: 'seven' } }], 'tool_use')
        : messageReply([{ type: 'tool_use', id: 'toolu_2', name: 'Score', input: { value: 7 } }], 'tool_use'),
    );
    const result = await backend().generateObject(objectRequest);
    expect(result.object).to.deep.equal({ value: 7 });
    expect(result.usage).to.deep.include({ input_tokens: 40, output_tokens: 18 });
    const retry = fake.requests[1]!.body.messages!.at(-1)! as {
      role: string;
      content: { type: string; tool_use_id: string; is_error: boolean; content: string }[];
    };
    expect(retry.role).to.equal('user');
    expect(retry.content[0]).to.deep.include({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true });
    expect(retry.content[0]!.content).to.include('/value must be integer');
  });

  it('should map 429 with retry-after to a retryable TRANSIENT error', async () => {
    fake.respondWith(() => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } },
    }));
    const error = await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }));
    expect(error).to.be.instanceOf(LLMCompletionError);
    expect(error).to.include({
      error_category: 'TRANSIENT',
      retryable: true,
      provider: 'anthropic',
      model: 'claude-fake-model',
    });
    expect(error.provider_metadata).to.include({ provider: 'anthropic', status_code: 429, retry_after_seconds: 7 });
  });

  it('should map 401 to CONFIGURATION and 529 (overloaded) to TRANSIENT', async () => {
    fake.respondWith(() => ({
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'bad key' } },
    }));
    expect((await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }))).error_category).to.equal(
      'CONFIGURATION',
    );
    fake.respondWith(() => ({
      status: 529,
      body: { type: 'error', error: { type: 'overloaded_error', message: 'overloaded' } },
    }));
    expect((await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }))).error_category).to.equal(
      'TRANSIENT',
    );
  });

  it('should map stop_reason max_tokens to a truncation error', async () => {
    fake.respondWith(() => messageReply([{ type: 'text', text: 'partial' }], 'max_tokens'));
    expect(await failureOf(backend().generateText({ pipeCode: 'p', userPrompt: 'x' }))).to.be.instanceOf(
      LLMCompletionTruncatedError,
    );
  });
});
