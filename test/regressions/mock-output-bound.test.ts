/**
 * Regression of issue 29, finding 3 (high — mock inference builds unbounded outputs): under the default mock profile,
 * `/v1/execute` with `output_multiplicity` (or `Text[N]`) of 1,000,000 took 8 s and answered 78 MB while `/health`
 * timed out; 999,999,999 held the event loop, ignored SIGTERM and was OOM-killed; 2^32 and above was a 500 ("Invalid
 * array length"). The count went unchecked from the request to the mock, which built that many items at once.
 *
 * The run request now takes `output_multiplicity` from 1 to `MAX_MULTIPLICITY` (422 at the edge, before the run), a
 * bundle's `Text[N]` is bounded by the same language limit, and the mock answers like a provider with a maximum
 * output: what a schema asks beyond `MOCK_MAX_OUTPUT_TOKENS` stops with `LLMCompletionTruncatedError`, checked before
 * the items are built (docs/limits.md#multiplicity, "Mock inference"). A real API process, so that a build without
 * the bounds fails by dying rather than taking the test runner with it.
 */
import { expect } from 'chai';
import { type ServiceProcess, spawnApi } from '../helpers/processes.js';

const HELLO =
  'domain = "hello_greeting"\nmain_pipe = "write_greeting"\n\n[pipe.write_greeting]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi $name."\n';

/** Twenty required text fields a record, a thousand records: about 210,000 tokens of mock output. */
const RECORDS = `domain = "wide_output"
main_pipe = "list_records"

[concept.Record]
description = "A record of twenty texts"

[concept.Record.structure]
${Array.from({ length: 20 }, (_, index) => `field_${index} = { type = "text", description = "f", required = true }`).join('\n')}

[pipe.list_records]
type = "PipeLLM"
description = "d"
inputs = { name = "Text" }
output = "Record[1000]"
prompt = "List records about $name."
`;

const ANSWER_WITHIN_MS = 20000;

describe('regression: run multiplicities and mock outputs are bounded (issue 29, finding 3)', function () {
  this.timeout(120000);
  let api: ServiceProcess;
  let baseUrl: string;

  before(async () => {
    ({ api, baseUrl } = await spawnApi({ INFERENCE_PROFILE: 'mock' }));
  });
  after(async () => {
    await api.stop();
  });

  const execute = async (body: unknown) => {
    const response = await fetch(`${baseUrl}/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
    return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
  };
  const health = async () => (await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) })).json();

  for (const count of [1_000_000, 999_999_999, 2 ** 32]) {
    it(`should refuse output_multiplicity ${count} at the edge with 422 ValidationError, and stay up`, async () => {
      const answer = await execute({ mthds_contents: [HELLO], inputs: { name: 'Ada' }, output_multiplicity: count });
      expect(answer.status).to.equal(422);
      expect(answer.type).to.equal('application/problem+json');
      expect(answer.body).to.deep.include({
        type: '/errors/validation-error/',
        title: 'Validation error',
        status: 422,
        detail: 'body.output_multiplicity: must be true, false or a count from 1 to 1000 (MAX_MULTIPLICITY)',
        instance: '/v1/execute',
        error_type: 'ValidationError',
        error_domain: 'input',
        retryable: false,
      });
      expect(await health()).to.deep.equal({ status: 'ok', message: 'MTHDS runner is running' });
    });
  }

  it('should refuse Text[1000000] in the bundle with 422 ValidateBundleError naming the field', async () => {
    const answer = await execute({
      mthds_contents: [HELLO.replace('output = "Text"', 'output = "Text[1000000]"')],
      inputs: { name: 'Ada' },
    });
    expect(answer.status).to.equal(422);
    expect(answer.body).to.deep.include({ error_type: 'ValidateBundleError', status: 422 });
    expect(answer.body)
      .to.have.property('validation_errors')
      .that.deep.equals([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'write_greeting', output: 'Text[1000000]' asks for a count outside 1 to 1,000 (MAX_MULTIPLICITY). Ask for at most 1,000 items, or for a variable list ('[]').",
          error_type: 'multiplicity_out_of_range',
          source: null,
          pipe_code: 'write_greeting',
          domain_code: 'hello_greeting',
          field_path: 'pipe.write_greeting.output',
          field_name: 'output',
        },
      ]);
  });

  it('should answer a mock output over its maximum with 422 LLMCompletionTruncatedError, as a provider would', async () => {
    const answer = await execute({ mthds_contents: [RECORDS], inputs: { name: 'Ada' } });
    expect(answer.status).to.equal(422);
    expect(answer.body).to.deep.include({
      type: '/errors/llm-completion-truncated-error/',
      title: 'LLM completion truncated',
      status: 422,
      detail:
        "Mock inference: the output would exceed 65,536 tokens, the mock's maximum output (as a provider's max_tokens bounds a completion); ask for fewer or smaller items.",
      error_type: 'LLMCompletionTruncatedError',
      error_category: 'CONTENT',
      error_domain: 'input',
      retryable: false,
    });
    expect(await health()).to.deep.equal({ status: 'ok', message: 'MTHDS runner is running' });
  });

  it('should still run a thousand items, the most a count may ask for', async () => {
    const answer = await execute({ mthds_contents: [HELLO], inputs: { name: 'Ada' }, output_multiplicity: 1000 });
    expect(answer.status).to.equal(200);
    expect(answer.body)
      .to.have.nested.property('pipe_output.working_memory.root.main_stuff.content.items')
      .that.has.length(1000);
  });
});
