/**
 * Provider failure classification over HTTP (docs/errors.md#inference-error-categories, docs/errors.md): a fake
 * OpenAI-compatible server on
 * 127.0.0.1 answers each failure status; the problem document carries the category, domain, retryable flag and
 * user action the catalog gives, the model and provider, and the provider metadata, reduced under strict disclosure.
 */
import { expect } from 'chai';
import request from 'supertest';
import { sample } from '../helpers/corpus.js';
import { type FakeOpenAiServer, providerError, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { buildTestApp } from '../helpers/test-app.js';

interface Case {
  status: number;
  message: string;
  sdkType: string;
  httpStatus: number;
  category: string;
  domain: string;
  retryable: boolean;
  userAction: { kind: string; detail: string };
}

const TRANSIENT = {
  kind: 'wait_and_retry',
  detail: 'The provider is temporarily unavailable or rate-limited; retry later.',
};

const CASES: Case[] = [
  {
    status: 401,
    message: 'Incorrect API key provided.',
    sdkType: 'AuthenticationError',
    httpStatus: 500,
    category: 'CONFIGURATION',
    domain: 'config',
    retryable: false,
    userAction: { kind: 'check_credentials', detail: 'Check the provider credentials, endpoint and model name.' },
  },
  {
    status: 402,
    message: 'Insufficient credits',
    sdkType: 'APIError',
    httpStatus: 500,
    category: 'CAPACITY',
    domain: 'runtime',
    retryable: false,
    userAction: { kind: 'check_billing', detail: 'The provider account is out of quota or credits.' },
  },
  {
    status: 400,
    message: 'Invalid prompt: flagged by policy',
    sdkType: 'BadRequestError',
    httpStatus: 422,
    category: 'CONTENT',
    domain: 'input',
    retryable: false,
    userAction: {
      kind: 'change_input',
      detail: 'The provider rejected or could not complete this input; change the input or the prompt.',
    },
  },
  {
    status: 503,
    message: 'overloaded',
    sdkType: 'InternalServerError',
    httpStatus: 500,
    category: 'TRANSIENT',
    domain: 'runtime',
    retryable: true,
    userAction: TRANSIENT,
  },
  {
    status: 429,
    message: 'Rate limit reached',
    sdkType: 'RateLimitError',
    httpStatus: 429,
    category: 'TRANSIENT',
    domain: 'runtime',
    retryable: true,
    userAction: TRANSIENT,
  },
];

describe('provider failures over POST /v1/execute', () => {
  let fake: FakeOpenAiServer;
  const environment = (extra: Record<string, string> = {}) => ({
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: fake.baseUrl,
    INFERENCE_MAX_RETRIES: '0',
    ...extra,
  });
  const execute = (extra: Record<string, string> = {}) =>
    request(buildTestApp(environment(extra)))
      .post('/v1/execute')
      .send({ mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } });

  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
  });

  afterEach(async () => {
    await fake.close();
  });

  for (const failure of CASES) {
    it(`should classify a provider ${failure.status} as ${failure.category} (HTTP ${failure.httpStatus})`, async () => {
      fake.respondWith(() => providerError(failure.status, failure.message));
      const response = await execute().expect(failure.httpStatus);
      expect(response.headers['content-type']).to.equal('application/problem+json');
      expect(response.headers).to.not.have.property('retry-after');
      expect(response.headers).to.not.have.property('www-authenticate');
      expect(response.body).to.deep.equal({
        type: '/errors/llm-completion-error/',
        title: 'LLM completion',
        status: failure.httpStatus,
        detail: `Pipe 'write_greeting': the provider answered ${failure.status}: ${failure.status} ${failure.message}`,
        instance: '/v1/execute',
        request_id: response.headers['x-request-id'],
        error_type: 'LLMCompletionError',
        error_category: failure.category,
        error_domain: failure.domain,
        retryable: failure.retryable,
        user_action: failure.userAction,
        model: 'gpt-4o-mini',
        provider: 'openai',
        provider_metadata: {
          provider: 'openai',
          sdk_exception_type: failure.sdkType,
          message: `${failure.status} ${failure.message}`,
          status_code: failure.status,
        },
      });
      expect(fake.requests).to.have.length(1);
    });

    it(`should strip the message, user_action, model, provider and all provider_metadata but the status of a ${failure.status} under strict disclosure`, async () => {
      fake.respondWith(() => providerError(failure.status, failure.message));
      const response = await execute({ ERROR_DISCLOSURE: 'strict' }).expect(failure.httpStatus);
      expect(response.body).to.deep.equal({
        type: '/errors/llm-completion-error/',
        title: 'LLM completion',
        status: failure.httpStatus,
        detail: 'An internal error occurred.',
        instance: '/v1/execute',
        request_id: response.headers['x-request-id'],
        error_type: 'LLMCompletionError',
        error_category: failure.category,
        error_domain: failure.domain,
        retryable: failure.retryable,
        provider_metadata: { status_code: failure.status },
      });
    });
  }

  it('should keep retry_after_seconds (rounded up in Retry-After) under strict disclosure', async () => {
    fake.respondWith(() => providerError(429, 'Rate limit reached', { 'retry-after': '2.5' }));
    const response = await execute({ ERROR_DISCLOSURE: 'strict' }).expect(429);
    expect(response.headers['retry-after']).to.equal('3');
    expect(response.body.provider_metadata).to.deep.equal({ status_code: 429, retry_after_seconds: 2.5 });
  });

  it('should serve the next request normally after a provider failure', async () => {
    const app = buildTestApp(environment());
    fake.respondWith(() => providerError(503, 'overloaded'));
    await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } })
      .expect(500);
    fake.respondWith((recorded) => ({
      body: {
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: String(recorded.body.model),
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Recovered.', refusal: null },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
    }));
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } })
      .expect(200);
    expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({ text: 'Recovered.' });
  });
});
