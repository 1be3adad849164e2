import { expect } from 'chai';
import {
  EnvVarNotFoundError,
  kebabErrorName,
  LLMCompletionError,
  PipeConditionError,
  type ProblemContext,
  renderProblem,
  ValidateBundleError,
  ValidationError,
} from '../../../shared/errors/index.js';

const DOCS = 'https://docs.example.test';
const verbose: ProblemContext = { instance: '/v1/execute', requestId: 'req-1', docsUrl: DOCS, disclosure: 'verbose' };
const strict: ProblemContext = { ...verbose, disclosure: 'strict' };

function rateLimited(retryAfter: number): LLMCompletionError {
  return new LLMCompletionError('Rate limit reached for requests', {
    category: 'TRANSIENT',
    model: 'gpt-4o-mini',
    provider: 'openai',
    providerMetadata: {
      provider: 'openai',
      sdk_exception_type: 'RateLimitError',
      message: 'Rate limit reached',
      status_code: 429,
      retry_after_seconds: retryAfter,
    },
  });
}

describe('kebabErrorName', () => {
  it('should follow the reference kebab rule', () => {
    expect(kebabErrorName('InvalidJSON')).to.equal('invalid-json');
    expect(kebabErrorName('LLMCompletionError')).to.equal('llm-completion-error');
    expect(kebabErrorName('InvalidBase64')).to.equal('invalid-base64');
    expect(kebabErrorName('ValidateBundleError')).to.equal('validate-bundle-error');
  });
});

describe('renderProblem', () => {
  describe('when the error is API-authored', () => {
    it('should render every envelope member with retryable false', () => {
      const problem = renderProblem(new ValidationError('body.mthds_contents: Field required'), verbose);
      expect(problem.status).to.equal(422);
      expect(problem.body).to.deep.equal({
        type: `${DOCS}/errors/validation-error/`,
        title: 'Validation error',
        status: 422,
        detail: 'body.mthds_contents: Field required',
        instance: '/v1/execute',
        request_id: 'req-1',
        error_type: 'ValidationError',
        error_domain: 'input',
        retryable: false,
      });
    });

    it('should keep the detail under strict disclosure', () => {
      expect(renderProblem(new ValidationError('bad field'), strict).body.detail).to.equal('bad field');
    });
  });

  describe('when the error is a foreign exception', () => {
    it('should render the catch-all 500 with the fixed sentence in verbose mode, never the engine message', () => {
      const problem = renderProblem(new RangeError('Maximum call stack size exceeded'), verbose);
      expect(problem.status).to.equal(500);
      expect(problem.body).to.deep.equal({
        type: `${DOCS}/errors/internal-server-error/`,
        title: 'Internal server error',
        status: 500,
        detail: 'An unexpected error occurred. The request id is included for support.',
        instance: '/v1/execute',
        request_id: 'req-1',
        error_type: 'InternalServerError',
        error_category: 'unknown',
        error_domain: 'runtime',
        retryable: false,
      });
    });

    it('should render the fixed sentence in strict mode and never a stack', () => {
      const problem = renderProblem(new RangeError('secret internals'), strict);
      expect(problem.body.detail).to.equal('An unexpected error occurred. The request id is included for support.');
      expect(JSON.stringify(problem.body)).to.not.include('secret internals').and.not.include('at ');
    });
  });

  describe('when the error comes from the runtime', () => {
    it('should map a domain-less error to 500 without error_domain or retryable', () => {
      const problem = renderProblem(new EnvVarNotFoundError('COMPLETION_CALLBACK_SECRET is not set'), verbose);
      expect(problem.status).to.equal(500);
      expect(problem.body).to.not.have.property('error_domain');
      expect(problem.body).to.not.have.property('retryable');
      expect(problem.body.title).to.equal('Environment variable not set');
    });

    it('should redact a non caller-facing detail under strict disclosure', () => {
      expect(renderProblem(new PipeConditionError('expression rendered None'), strict).body.detail).to.equal(
        'An internal error occurred.',
      );
      expect(renderProblem(new EnvVarNotFoundError('X is not set'), strict).body.detail).to.equal(
        'Server configuration error',
      );
    });

    it('should keep ValidateBundleError readable with its validation_errors under strict disclosure', () => {
      const items = [{ category: 'blueprint_validation' as const, message: 'bad' }];
      const problem = renderProblem(new ValidateBundleError('Validation error(s): bad', items), strict);
      expect(problem.status).to.equal(422);
      expect(problem.body.detail).to.equal('Validation error(s): bad');
      expect(problem.body.validation_errors).to.deep.equal(items);
      expect(problem.body.user_action).to.deep.equal({
        kind: 'change_input',
        detail: 'Check the validation_errors array for specific issues',
      });
    });
  });

  describe('when a provider rate-limited the call', () => {
    it('should answer 429 with Retry-After rounded up', () => {
      const problem = renderProblem(rateLimited(12.4), verbose);
      expect(problem.status).to.equal(429);
      expect(problem.headers).to.deep.equal({ 'Retry-After': '13' });
      expect(problem.body.retryable).to.equal(true);
      expect(problem.body.error_category).to.equal('TRANSIENT');
      expect(problem.body.model).to.equal('gpt-4o-mini');
    });

    it('should clamp a negative hint to 0', () => {
      expect(renderProblem(rateLimited(-5), verbose).headers['Retry-After']).to.equal('0');
    });

    it('should strip model and provider and reduce provider_metadata under strict disclosure', () => {
      const body = renderProblem(rateLimited(3), strict).body;
      expect(body).to.not.have.property('model');
      expect(body).to.not.have.property('provider');
      expect(body.provider_metadata).to.deep.equal({ status_code: 429, retry_after_seconds: 3 });
      expect(body.detail).to.equal('An internal error occurred.');
    });
  });
});
