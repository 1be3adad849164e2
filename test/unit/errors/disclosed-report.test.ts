import { expect } from 'chai';
import { disclosedMessage, disclosedReport, type ErrorReport } from '../../../shared/errors/index.js';

const DOCS = 'https://docs.example.test';

const providerFailure: ErrorReport = {
  error_type: 'LLMCompletionError',
  message: 'upstream said: model overloaded at https://internal.example/v1',
  title: 'LLM completion',
  type_uri: `${DOCS}/errors/llm-completion-error/`,
  error_domain: 'runtime',
  retryable: true,
  user_action: { kind: 'wait_and_retry', detail: 'Retry later.' },
  model: 'gpt-x',
  provider: 'openai',
  provider_metadata: { provider: 'openai', sdk_exception_type: 'APIError', message: 'overloaded', status_code: 529 },
  pipe_code: 'write_greeting',
};

const inputFailure: ErrorReport = {
  error_type: 'PipeInputError',
  message: "Pipe 'greet' is missing required inputs: name (available: none).",
  title: 'Pipe input',
  type_uri: `${DOCS}/errors/pipe-input-error/`,
  error_domain: 'input',
  pipe_code: 'greet',
};

describe('disclosedReport (a stored error report as a caller may see it, spec §7.5)', () => {
  describe('when ERROR_DISCLOSURE=verbose', () => {
    it('should give the report unchanged', () => {
      expect(disclosedReport(providerFailure, 'verbose')).to.equal(providerFailure);
    });
  });

  describe('when ERROR_DISCLOSURE=strict', () => {
    it('should redact a runtime error that is not caller-facing and drop what names the provider', () => {
      expect(disclosedReport(providerFailure, 'strict')).to.deep.equal({
        error_type: 'LLMCompletionError',
        message: 'An internal error occurred.',
        title: 'LLM completion',
        type_uri: `${DOCS}/errors/llm-completion-error/`,
        error_domain: 'runtime',
        retryable: true,
        pipe_code: 'write_greeting',
      });
    });

    it('should keep the message of a caller-facing error', () => {
      expect(disclosedReport(inputFailure, 'strict')).to.deep.equal(inputFailure);
    });

    it('should give an uncatalogued error the catch-all message', () => {
      expect(disclosedMessage('SomethingForeign', 'Maximum call stack size exceeded', 'strict')).to.equal(
        'An unexpected error occurred. The request id is included for support.',
      );
    });
  });
});
