/**
 * Regression of issue 29, finding 1 (critical — a 300-byte request kills the API): `POST /v1/validate` of a bundle
 * whose
 * pipe outputs `Text[999999999]` got no answer, and 22–33 s later the process died ("JavaScript heap out of memory" in
 * a diagnostics thread); `Text[10000000]` answered 422 after 17 s, `Text[1000000]` a 39 MB verdict. The dry run asked
 * mock inference for 999,999,999 items, which built them in one array: past ~10^8 elements V8 keeps such an array as
 * a hash table and doubles it in one allocation, and a single allocation that takes a thread's heap more than the
 * 16 MiB Node grants past its `resourceLimits` aborts the whole process, not the thread (docs/isolation.md).
 *
 * A fixed count is now a bounded part of the language (`MAX_MULTIPLICITY`, rule `S2-multiplicity-range`), checked
 * before anything is built: the verdict names the pipe and the field, in milliseconds. The test runs a real API
 * process, so that on a build without the bound it fails by the process dying rather than taking the test runner
 * with it.
 */
import { expect } from 'chai';
import { type ServiceProcess, spawnApi } from '../helpers/processes.js';

/** The bundle of the issue, with its output's count. */
const bundle = (count: string) =>
  `domain = "hello_greeting"\nmain_pipe = "write_greeting"\n\n[pipe.write_greeting]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "Text[${count}]"\nprompt = "Hi $name."\n`;

/** The verdict item of an output count out of range. */
const outOfRange = (count: string) => ({
  category: 'blueprint_validation',
  message: `Pipe 'write_greeting', output: 'Text[${count}]' asks for a count outside 1 to 1,000 (MAX_MULTIPLICITY). Ask for at most 1,000 items, or for a variable list ('[]').`,
  error_type: 'multiplicity_out_of_range',
  source: null,
  pipe_code: 'write_greeting',
  domain_code: 'hello_greeting',
  field_path: 'pipe.write_greeting.output',
  field_name: 'output',
});

/** Longest a request of this suite may take: on a build without the bound, the first one never answers. */
const ANSWER_WITHIN_MS = 20000;

describe('regression: a fixed multiplicity is bounded before anything is built (issue 29, finding 1)', function () {
  this.timeout(120000);
  let api: ServiceProcess;
  let baseUrl: string;

  before(async () => {
    ({ api, baseUrl } = await spawnApi({ INFERENCE_PROFILE: 'mock', COMPUTE_TIMEOUT_MS: String(ANSWER_WITHIN_MS) }));
  });
  after(async () => {
    await api.stop();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS + 10000),
    });
    return { status: response.status, type: response.headers.get('content-type'), body: await response.json() };
  };
  const health = async () => (await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) })).json();

  for (const count of ['999999999', '10000000', '1000000']) {
    it(`should answer /v1/validate of Text[${count}] with an invalid verdict naming the field, and stay up`, async () => {
      const answer = await post('/v1/validate', { mthds_contents: [bundle(count)] });
      expect(answer.status).to.equal(200);
      expect(answer.body).to.deep.include({
        is_valid: false,
        validation_errors: [outOfRange(count)],
        is_runnable: false,
      });
      expect(await health()).to.deep.equal({ status: 'ok', message: 'MTHDS runner is running' });
    });
  }

  it('should answer /v1/build/runner of Text[999999999] with 422 ValidateBundleError carrying the item', async () => {
    const answer = await post('/v1/build/runner', {
      mthds_contents: [bundle('999999999')],
      pipe_code: 'write_greeting',
    });
    expect(answer.status).to.equal(422);
    expect(answer.type).to.equal('application/problem+json');
    expect(answer.body).to.deep.include({
      type: '/errors/validate-bundle-error/',
      status: 422,
      error_type: 'ValidateBundleError',
      detail: `Validation error(s): ${outOfRange('999999999').message}`,
      validation_errors: [outOfRange('999999999')],
    });
    expect(await health()).to.deep.equal({ status: 'ok', message: 'MTHDS runner is running' });
    expect(api.child.exitCode).to.equal(null);
  });
});
