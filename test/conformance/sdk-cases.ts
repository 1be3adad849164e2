/**
 * The calls of the conformance suite: each public method of the official JS SDK's `MthdsApiClient` and each `run`,
 * `validate` and `build` command of its `mthds` CLI, driven against this server, with what a passing call looks like.
 * Which of them pass in which orchestration mode, and how the others fail, is data: `sdk-matrix.json` beside
 * `test/fixtures/conformance/` (docs/conformance.md).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { corpusJson, corpusSampleFiles, sample } from '../helpers/corpus.js';
import { type CliRun, type MthdsClient, printedJson } from '../helpers/mthds-js.js';
import type { Exchange } from '../helpers/recording-server.js';
import { RESULTS_MEMBERS } from '../helpers/results-members.js';

/** The two orchestration modes the suite runs in. */
export type Mode = 'direct' | 'queue';

/** What a case can use: clients of the server under test, the CLI, its working directory. */
export interface CaseContext {
  mode: Mode;
  /** A client of the deployment under test. */
  client: MthdsClient;
  /** A client of a deployment of the same mode whose started runs never leave PENDING (queue: no workers). */
  idleClient: MthdsClient;
  /** Run the CLI in {@link CaseContext.workDir} against the deployment under test. */
  cli(...args: string[]): Promise<CliRun>;
  /** Holds the files the CLI cases name (see {@link WORK_FILES}). */
  workDir: string;
}

/** An error the SDK threw, with the members its `ApiResponseError` / `RunFailedError` carry. */
export interface SdkError {
  name: string;
  message: string;
  status?: number | string;
  errorType?: string;
  serverMessage?: string;
  responseBody?: string;
}

/** How a case ended, with the requests it sent (in the order their responses ended). */
export type Outcome =
  | { kind: 'resolved'; value: Record<string, unknown>; requests: Exchange[] }
  | { kind: 'rejected'; error: SdkError; requests: Exchange[] }
  | { kind: 'exited'; run: CliRun; requests: Exchange[] };

/** One call of the suite. */
export interface ConformanceCase {
  /** SDK cases resolve or reject; CLI cases always end with a {@link CliRun}. */
  surface: 'sdk' | 'cli';
  run(context: CaseContext): Promise<unknown>;
  /** Assert that the call passed. */
  check(outcome: Outcome, context: CaseContext): void;
}

const HELLO = sample('hello_greeting');
const HELLO_INPUTS = corpusJson('pipelex-api-samples/hello_greeting.inputs.json') as Record<string, unknown>;
const GREETING = '[mock inference] Response to: "Write a short, friendly one-sentence greeting for Ada Lovelace."';
const INVALID = sample('invalid/prompt_input_mismatch');
const SIGNATURES = sample('draft_with_signature');

/** Every sample of `pipelex-api-samples`, the invalid ones included, and whether it is valid. */
const SAMPLE_VERDICTS: Record<string, boolean> = Object.fromEntries([
  ...corpusSampleFiles().map((file) => [file.replace('.mthds', ''), true]),
  ...readdirSync(new URL('../../../shared/corpus/pipelex-api-samples/invalid/', import.meta.url))
    .filter((file) => file.endsWith('.mthds'))
    .sort()
    .map((file) => [`invalid/${file.replace('.mthds', '')}`, file === 'missing_main_pipe.mthds']),
]);

/** A bundle of the project's own whose runs fail at run time, after every up-front check: its condition says `fail`. */
const GATE = `domain = "gate"
description = "Lets a request through only when it is approved"
main_pipe = "gate_request"

[pipe.gate_request]
type = "PipeCondition"
description = "Fail unless the decision is approved"
inputs = { decision = "Text" }
output = "Text"
expression = "decision.text"
default_outcome = "fail"

[pipe.gate_request.outcomes]
approved = "confirm"

[pipe.confirm]
type = "PipeLLM"
description = "Confirm the approval"
inputs = { decision = "Text" }
output = "Text"
prompt = "Confirm that the request was $decision."
`;
const REJECTED = { decision: 'rejected' };
const GATE_FAILURE =
  "PipeCondition 'gate_request' failed with outcome: fail. Evaluated expression: 'rejected' (outcomes: approved).";
const FAILED_DETAIL =
  "Run finished with status FAILED: PipeCondition 'gate_request' failed with outcome: fail. Evaluated expression: 'rejected' (outcomes: approved).";

/** The files the CLI cases read, by name, written into the work directory before the suite. */
export const WORK_FILES: Record<string, string> = {
  'hello.mthds': HELLO,
  'hello.inputs.json': JSON.stringify(HELLO_INPUTS),
  'mismatch.mthds': INVALID,
  'gate.mthds': GATE,
  'rejected.json': JSON.stringify(REJECTED),
};

/** Polls fast: the server's `Retry-After` (1 s) sets the real pace. */
const POLL = { intervalMs: 200, timeoutMs: 60000 };

function resolved(outcome: Outcome): Record<string, unknown> {
  if (outcome.kind !== 'resolved')
    expect.fail(`expected the call to resolve, it ended with ${describeOutcome(outcome)}`);
  return outcome.value;
}

function rejected(outcome: Outcome): SdkError {
  if (outcome.kind !== 'rejected')
    expect.fail(`expected the call to reject, it ended with ${describeOutcome(outcome)}`);
  return outcome.error;
}

function exited(outcome: Outcome): CliRun {
  if (outcome.kind !== 'exited') expect.fail(`expected a CLI run, got ${describeOutcome(outcome)}`);
  return outcome.run;
}

/**
 * A one-line account of an outcome, for failure messages.
 * @param outcome - a case's outcome
 */
export function describeOutcome(outcome: Outcome): string {
  if (outcome.kind === 'resolved') return `a value ${JSON.stringify(outcome.value).slice(0, 300)}`;
  if (outcome.kind === 'rejected') {
    const { name, status, errorType, message } = outcome.error;
    return `${name} (status ${String(status)}, errorType ${String(errorType)}): ${message.slice(0, 300)}`;
  }
  return `exit ${String(outcome.run.code)}: ${(outcome.run.stdout + outcome.run.stderr).slice(-600)}`;
}

function problemOf(error: SdkError): Record<string, unknown> {
  return JSON.parse(error.responseBody ?? '') as Record<string, unknown>;
}

function wire(requests: Exchange[]): string[] {
  return requests.map((exchange) => `${exchange.method} ${exchange.url.replace(/\/runs\/[^/]+\//, '/runs/{id}/')}`);
}

function expectApiError(error: SdkError, status: number, errorType: string): void {
  expect({ name: error.name, status: error.status, errorType: error.errorType }).to.deep.equal({
    name: 'ApiResponseError',
    status,
    errorType,
  });
  expect(error.serverMessage).to.equal(problemOf(error)['detail']);
}

/** A build helper's plain `Error` (docs/errors.md): `API POST <url> failed (<status>): <problem document>`. */
function expectBuildProblem(error: SdkError, route: string, status: number, errorType: string): void {
  expect(error.name).to.equal('Error');
  const match = /^API POST http:\/\/127\.0\.0\.1:\d+(\/v1\/build\/[a-z-]+) failed \((\d+)\): (.*)$/s.exec(
    error.message,
  );
  expect(match, error.message).to.not.equal(null);
  expect([match![1], Number(match![2])]).to.deep.equal([route, status]);
  expect(JSON.parse(match![3]!)).to.include({ status, error_type: errorType });
}

function expectGreetingResult(result: Record<string, unknown>, runId?: string): void {
  expect(Object.keys(result)).to.deep.equal(RESULTS_MEMBERS);
  if (runId) expect(result['pipeline_run_id']).to.equal(runId);
  expect(result['main_stuff']).to.deep.equal({ text: GREETING });
  const output = result['pipe_output'] as { pipeline_run_id: string; graph_spec: unknown };
  expect(output.pipeline_run_id).to.equal(result['pipeline_run_id']);
  expect(result['graph_spec']).to.deep.equal(output.graph_spec);
  expect(result['graph_spec']).to.have.property('graph_id', result['pipeline_run_id']);
}

const sdk = (run: ConformanceCase['run'], check: ConformanceCase['check']): ConformanceCase => ({
  surface: 'sdk',
  run,
  check,
});
const cli = (args: string[], check: ConformanceCase['check']): ConformanceCase => ({
  surface: 'cli',
  run: (context) => context.cli(...args),
  check,
});

/** A run of the greeting through the blocking route, whose id the lifecycle cases then read. */
async function executedGreeting(client: MthdsClient): Promise<Record<string, unknown>> {
  return client.execute({ mthds_contents: [HELLO], inputs: HELLO_INPUTS });
}

/** A run of the gate that failed, and what waiting for it threw. */
async function failedGate(client: MthdsClient): Promise<string> {
  const ack = await client.start({ mthds_contents: [GATE], inputs: REJECTED });
  const runId = ack['pipeline_run_id'] as string;
  await client.waitForResult(runId, POLL).then(
    () => expect.fail('the gate run completed'),
    (error: SdkError) => expect(error.name).to.equal('RunFailedError'),
  );
  return runId;
}

/**
 * What passing means for a command the CLI refuses with its API runner: that it ran (it exits 1 before any request).
 */
function exitsZero(outcome: Outcome): void {
  const run = exited(outcome);
  expect(run.code, run.stdout + run.stderr).to.equal(0);
}

/** Every case, by id (the ids of `sdk-matrix.json`). */
export const CASES: Record<string, ConformanceCase> = {
  health: sdk(
    ({ client }) => client.health(),
    (outcome) => {
      expect(resolved(outcome)).to.deep.equal({ status: 'ok', message: 'MTHDS runner is running' });
      expect(wire(outcome.requests)).to.deep.equal(['GET /health']);
    },
  ),
  version: sdk(
    ({ client }) => client.version(),
    (outcome) => {
      const packageVersion = (
        JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
      ).version;
      expect(resolved(outcome)).to.deep.equal({
        protocol_version: '0.7.0',
        runner_version: packageVersion,
        implementation: 'mthds-runner',
        implementation_version: packageVersion,
        runtime_version: packageVersion,
      });
    },
  ),
  models: sdk(
    ({ client }) => client.models(),
    (outcome) => {
      const { models } = resolved(outcome) as { models: { name: unknown; type: unknown }[] };
      expect(models).to.not.be.empty;
      for (const model of models) {
        expect(model.name).to.be.a('string');
        expect(['llm', 'extract', 'img_gen', 'search', 'judgment', null]).to.include(model.type);
      }
    },
  ),
  'models-category': sdk(
    ({ client }) => client.models('llm'),
    (outcome) => {
      const { models } = resolved(outcome) as { models: { type: unknown }[] };
      expect(models).to.not.be.empty;
      expect(new Set(models.map((model) => model.type))).to.deep.equal(new Set(['llm']));
      expect(wire(outcome.requests)).to.deep.equal(['GET /v1/models?type=llm']);
    },
  ),
  'validate-valid': sdk(
    ({ client }) => client.validate([HELLO]),
    (outcome) => {
      const report = resolved(outcome);
      expect(report).to.include({ is_valid: true, is_runnable: true });
      expect(JSON.parse(outcome.requests[0]!.requestBody)).to.deep.equal({
        mthds_contents: [HELLO],
        allow_signatures: false,
      });
    },
  ),
  'validate-invalid': sdk(
    ({ client }) => client.validate([INVALID]),
    (outcome) => {
      const report = resolved(outcome) as { validation_errors: { category: string; message: string }[] };
      expect(report).to.include({ is_valid: false, is_runnable: false });
      expect(report).to.have.property('message').that.is.a('string');
      expect(report.validation_errors.map(({ category, message }) => ({ category, message }))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'greet_person': the prompt uses 'city', which is not a declared input (declared: name). Add it to inputs or remove it from the prompt.",
        },
      ]);
    },
  ),
  'validate-signatures': sdk(
    ({ client }) => client.validate([SIGNATURES], true),
    (outcome) => {
      expect(resolved(outcome)).to.deep.include({
        is_valid: true,
        is_runnable: false,
        pending_signatures: ['draft_with_signature.translate_summary'],
      });
      expect(JSON.parse(outcome.requests[0]!.requestBody)).to.include({ allow_signatures: true });
    },
  ),
  'validate-corpus': sdk(
    async ({ client }) => {
      const verdicts: Record<string, unknown> = {};
      for (const name of Object.keys(SAMPLE_VERDICTS))
        verdicts[name] = (await client.validate([sample(name)], true))['is_valid'];
      return verdicts;
    },
    (outcome) => {
      expect(resolved(outcome)).to.deep.equal(SAMPLE_VERDICTS);
      expect(Object.keys(SAMPLE_VERDICTS)).to.have.length.of.at.least(11);
    },
  ),
  execute: sdk(
    ({ client }) => executedGreeting(client),
    (outcome) => {
      const result = resolved(outcome) as {
        pipeline_run_id: string;
        main_stuff_name: string;
        pipe_output: {
          pipeline_run_id: string;
          working_memory: { root: Record<string, { concept: unknown; content: unknown }>; aliases: object };
        };
      };
      expect(result.pipeline_run_id).to.be.a('string');
      expect(result.pipe_output.pipeline_run_id).to.equal(result.pipeline_run_id);
      const { root, aliases } = result.pipe_output.working_memory;
      expect(Object.keys(root)).to.deep.equal(['name', result.main_stuff_name]);
      expect(aliases).to.deep.equal({});
      const main = root[result.main_stuff_name]!;
      expect(main.content).to.deep.equal({ text: GREETING });
      expect(main.concept).to.deep.include({ code: 'Text', domain_code: 'native' });
    },
  ),
  'execute-structured': sdk(
    ({ client }) =>
      client.execute({
        mthds_contents: [sample('cv_job_match')],
        inputs: corpusJson('pipelex-api-samples/cv_job_match.inputs.json') as Record<string, unknown>,
      }),
    (outcome) => {
      const result = resolved(outcome) as {
        main_stuff_name: string;
        pipe_output: { working_memory: { root: Record<string, { concept: object; content: object }> } };
      };
      const main = result.pipe_output.working_memory.root[result.main_stuff_name]!;
      expect(main.concept).to.deep.include({ code: 'MatchAnalysis', domain_code: 'cv_job_match' });
      expect(Object.keys(main.content)).to.have.members([
        'is_match',
        'match_score',
        'key_strengths',
        'gaps',
        'recommendation',
      ]);
    },
  ),
  'execute-list-output': sdk(
    ({ client }) =>
      client.execute({
        mthds_contents: [sample('fashion_moodboard')],
        inputs: { fashion_target: 'Autumn streetwear' },
      }),
    (outcome) => {
      const result = resolved(outcome) as {
        main_stuff_name: string;
        pipe_output: { working_memory: { root: Record<string, { concept: object; content: { items: object[] } }> } };
      };
      const main = result.pipe_output.working_memory.root[result.main_stuff_name]!;
      expect(main.concept).to.deep.include({ code: 'Image', domain_code: 'native' });
      expect(main.content.items).to.not.be.empty;
      for (const item of main.content.items) expect(item).to.have.property('url').that.is.a('string');
    },
  ),
  'execute-signature': sdk(
    ({ client }) =>
      client.execute({
        mthds_contents: [SIGNATURES],
        inputs: corpusJson('pipelex-api-samples/draft_with_signature.inputs.json') as Record<string, unknown>,
      }),
    (outcome) => expectApiError(rejected(outcome), 422, 'PipeSignatureNotExecutableError'),
  ),
  'execute-invalid-bundle': sdk(
    ({ client }) => client.execute({ mthds_contents: [INVALID], inputs: HELLO_INPUTS }),
    (outcome) => {
      const error = rejected(outcome);
      expectApiError(error, 422, 'ValidateBundleError');
      expect(problemOf(error)['validation_errors']).to.have.length(1);
    },
  ),
  'execute-failing-run': sdk(
    ({ client }) => client.execute({ mthds_contents: [GATE], inputs: REJECTED }),
    (outcome) => {
      const error = rejected(outcome);
      expectApiError(error, 500, 'PipeConditionError');
      expect(error.serverMessage).to.equal(GATE_FAILURE);
    },
  ),
  start: sdk(
    ({ client }) =>
      client.start({
        mthds_contents: [HELLO],
        inputs: HELLO_INPUTS,
        extra: { pipeline_run_id: `conf-${randomUUID()}` },
      }),
    (outcome) => {
      const ack = resolved(outcome);
      const sent = JSON.parse(outcome.requests[0]!.requestBody) as { pipeline_run_id: string };
      expect(ack).to.include({ pipeline_run_id: sent.pipeline_run_id, state: 'STARTED', finished_at: null });
    },
  ),
  'start-duplicate-id': sdk(
    async ({ idleClient }) => {
      const run = { mthds_contents: [HELLO], inputs: HELLO_INPUTS, extra: { pipeline_run_id: `conf-${randomUUID()}` } };
      await idleClient.start(run);
      return idleClient.start(run);
    },
    (outcome) => expectApiError(rejected(outcome), 409, 'PipelineManagerAlreadyExistsError'),
  ),
  'start-missing-input': sdk(
    ({ client }) => client.start({ mthds_contents: [HELLO], inputs: {} }),
    (outcome) => expectApiError(rejected(outcome), 422, 'PipeInputError'),
  ),
  'run-status': sdk(
    async ({ client }) => {
      const executed = await executedGreeting(client);
      return { executed, status: await client.getRunStatus(executed['pipeline_run_id'] as string) };
    },
    (outcome) => {
      const { executed, status } = resolved(outcome) as Record<string, Record<string, unknown>>;
      expect(status).to.include({
        pipeline_run_id: executed!['pipeline_run_id'],
        status: 'COMPLETED',
        degraded: false,
      });
      expect(status!['finished_at']).to.be.a('string');
    },
  ),
  'run-status-pending': sdk(
    async ({ idleClient }) => {
      const ack = await idleClient.start({ mthds_contents: [HELLO], inputs: HELLO_INPUTS });
      return idleClient.getRunStatus(ack['pipeline_run_id'] as string);
    },
    (outcome) => expect(resolved(outcome)).to.include({ status: 'PENDING', finished_at: null, degraded: false }),
  ),
  'run-status-failed': sdk(
    async ({ client }) => client.getRunStatus(await failedGate(client)),
    (outcome) => {
      const status = resolved(outcome) as { error: Record<string, unknown> };
      expect(status).to.include({ status: 'FAILED', degraded: false });
      expect(status.error).to.include({
        error_type: 'PipeConditionError',
        error_domain: 'runtime',
        message: GATE_FAILURE,
      });
    },
  ),
  'run-status-unknown': sdk(
    ({ client }) => client.getRunStatus(`no-such-run-${randomUUID()}`),
    (outcome) => {
      const error = rejected(outcome);
      expectApiError(error, 404, 'RunNotFoundError');
      expect(problemOf(error)['code']).to.equal('run_not_found');
    },
  ),
  'run-result': sdk(
    async ({ client }) => {
      const executed = await executedGreeting(client);
      return { executed, read: await client.getRunResult(executed['pipeline_run_id'] as string) };
    },
    (outcome) => {
      const { executed, read } = resolved(outcome) as {
        executed: Record<string, unknown>;
        read: { state: string; result: Record<string, unknown> };
      };
      expect(read.state).to.equal('completed');
      expectGreetingResult(read.result, executed['pipeline_run_id'] as string);
      expect(read.result['pipe_output']).to.deep.equal(executed['pipe_output']);
    },
  ),
  'run-result-pending': sdk(
    async ({ idleClient }) => {
      const ack = await idleClient.start({ mthds_contents: [HELLO], inputs: HELLO_INPUTS });
      return idleClient.getRunResult(ack['pipeline_run_id'] as string);
    },
    (outcome) =>
      expect(resolved(outcome)).to.deep.equal({
        state: 'running',
        pipeline_run_id: JSON.parse(outcome.requests[0]!.responseBody).pipeline_run_id,
        retry_after_seconds: 1,
      }),
  ),
  'wait-for-result': sdk(
    async ({ client }) => {
      const executed = await executedGreeting(client);
      return client.waitForResult(executed['pipeline_run_id'] as string, POLL);
    },
    (outcome) => expectGreetingResult(resolved(outcome)),
  ),
  'start-then-wait': sdk(
    async ({ client }) => {
      const ack = await client.start({ mthds_contents: [HELLO], inputs: HELLO_INPUTS });
      return client.waitForResult(ack['pipeline_run_id'] as string, POLL);
    },
    (outcome) => expectGreetingResult(resolved(outcome)),
  ),
  'wait-timeout': sdk(
    async ({ idleClient }) => {
      const ack = await idleClient.start({ mthds_contents: [HELLO], inputs: HELLO_INPUTS });
      return idleClient.waitForResult(ack['pipeline_run_id'] as string, { intervalMs: 200, timeoutMs: 1500 });
    },
    (outcome) => {
      expect(rejected(outcome).name).to.equal('RunTimeoutError');
      expect(outcome.requests.slice(1).map((exchange) => exchange.status)).to.include(202);
    },
  ),
  'wait-failed-run': sdk(
    async ({ client }) => {
      const ack = await client.start({ mthds_contents: [GATE], inputs: REJECTED });
      return client.waitForResult(ack['pipeline_run_id'] as string, POLL);
    },
    (outcome) => {
      const error = rejected(outcome);
      expect({ name: error.name, status: error.status, message: error.message }).to.deep.equal({
        name: 'RunFailedError',
        status: 'FAILED',
        message: FAILED_DETAIL,
      });
    },
  ),
  'start-and-wait': sdk(
    ({ client }) => client.startAndWaitForResult({ mthds_contents: [HELLO], inputs: HELLO_INPUTS }, POLL),
    (outcome) => {
      expectGreetingResult(resolved(outcome));
      const calls = wire(outcome.requests);
      expect(calls.slice(0, 3)).to.deep.equal(['GET /v1/version', 'POST /v1/start', 'GET /v1/runs/{id}/results']);
      expect(new Set(calls.slice(2))).to.deep.equal(new Set(['GET /v1/runs/{id}/results']));
    },
  ),
  'build-inputs': sdk(
    ({ client }) => client.buildInputs({ mthds_contents: [HELLO], pipe_code: 'write_greeting' }),
    (outcome) => expect(resolved(outcome)).to.deep.equal({ name: 'text_value' }),
  ),
  'build-output': sdk(
    ({ client }) => client.buildOutput({ mthds_contents: [HELLO], pipe_code: 'write_greeting', format: 'json' }),
    (outcome) => expect(resolved(outcome)).to.deep.equal({ concept: 'native.Text', content: { text: 'text_value' } }),
  ),
  'build-runner': sdk(
    ({ client }) => client.buildRunner({ mthds_contents: [HELLO], pipe_code: 'write_greeting' }),
    (outcome) => {
      const runner = resolved(outcome);
      expect(runner).to.include({
        pipe_code: 'write_greeting',
        success: true,
        message: 'Runner code generated successfully',
      });
      expect(runner['python_code']).to.be.a('string').that.includes('hello_greeting.write_greeting');
    },
  ),
  'build-runner-invalid': sdk(
    ({ client }) => client.buildRunner({ mthds_contents: [INVALID], pipe_code: 'greet_person' }),
    (outcome) => expectBuildProblem(rejected(outcome), '/v1/build/runner', 422, 'ValidateBundleError'),
  ),
  concept: sdk(
    ({ client }) => client.concept({ spec: { concept_code: 'Greeting', description: 'A greeting' } }),
    (outcome) =>
      expect(resolved(outcome)).to.deep.equal({
        success: true,
        concept_code: 'Greeting',
        toml: '[concept.Greeting]\ndescription = "A greeting"\n',
      }),
  ),
  'pipe-spec': sdk(
    ({ client }) =>
      client.pipeSpec({
        pipe_type: 'PipeLLM',
        spec: { pipe_code: 'greet', description: 'Greet', inputs: { name: 'Text' }, output: 'Text', prompt: 'Hi' },
      }),
    (outcome) =>
      expect(resolved(outcome)).to.deep.equal({
        success: true,
        pipe_code: 'greet',
        pipe_type: 'PipeLLM',
        toml: '[pipe.greet]\ntype = "PipeLLM"\ndescription = "Greet"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi"\n',
      }),
  ),
  'concept-invalid': sdk(
    ({ client }) => client.concept({ spec: { description: 'A concept without a code' } }),
    (outcome) => expectBuildProblem(rejected(outcome), '/v1/build/concept', 422, 'ValidationError'),
  ),
  'pipe-spec-invalid': sdk(
    ({ client }) =>
      client.pipeSpec({ pipe_type: 'PipeWizardry', spec: { pipe_code: 'x', description: 'X', output: 'Text' } }),
    (outcome) => expectBuildProblem(rejected(outcome), '/v1/build/pipe-spec', 422, 'ValidationError'),
  ),
  'cli-validate-pipe': cli(['validate', 'pipe', 'hello.mthds'], (outcome) => {
    const run = exited(outcome);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.include('MTHDS content validated successfully');
    expect(wire(outcome.requests)).to.deep.equal(['POST /v1/validate']);
  }),
  'cli-validate-pipe-invalid': cli(['validate', 'pipe', 'mismatch.mthds'], (outcome) => {
    const run = exited(outcome);
    expect(run.code).to.equal(1);
    expect(run.stdout + run.stderr).to.include("the prompt uses 'city'");
  }),
  'cli-validate-bundle': cli(['validate', 'bundle', 'hello.mthds'], exitsZero),
  'cli-validate-method': cli(['validate', 'method', 'hello'], exitsZero),
  'cli-run-pipe': cli(['run', 'pipe', 'hello.mthds', '--inputs', 'hello.inputs.json'], (outcome) => {
    const run = exited(outcome);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(printedJson(run.stdout)).to.deep.equal({ text: GREETING });
  }),
  'cli-run-bundle': cli(
    ['run', 'bundle', 'hello.mthds', '--inputs', 'hello.inputs.json', '-o', 'run-output.json'],
    (outcome, { workDir }) => {
      const run = exited(outcome);
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expectGreetingResult(JSON.parse(readFileSync(join(workDir, 'run-output.json'), 'utf8')));
    },
  ),
  'cli-run-failing': cli(['run', 'pipe', 'gate.mthds', '--inputs', 'rejected.json'], (outcome) => {
    const run = exited(outcome);
    expect(run.code).to.equal(1);
    expect(run.stdout + run.stderr).to.include(FAILED_DETAIL);
  }),
  'cli-run-method': cli(['run', 'method', 'hello'], exitsZero),
  'cli-build-inputs-pipe': cli(['build', 'inputs', 'pipe', 'hello.mthds', '--pipe', 'write_greeting'], (outcome) => {
    const run = exited(outcome);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(printedJson(run.stdout)).to.deep.equal({ name: 'text_value' });
  }),
  'cli-build-output-pipe': cli(
    ['build', 'output', 'pipe', 'hello.mthds', '--pipe', 'write_greeting', '--format', 'json'],
    (outcome) => {
      const run = exited(outcome);
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(printedJson(run.stdout)).to.deep.equal({ concept: 'native.Text', content: { text: 'text_value' } });
    },
  ),
  'cli-build-runner-pipe': cli(
    ['build', 'runner', 'pipe', 'hello.mthds', '--pipe', 'write_greeting', '-o', 'runner.py'],
    (outcome, { workDir }) => {
      const run = exited(outcome);
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      const served = JSON.parse(outcome.requests[0]!.responseBody) as { python_code: string };
      expect(readFileSync(join(workDir, 'runner.py'), 'utf8')).to.equal(served.python_code);
    },
  ),
  'cli-build-inputs-method': cli(['build', 'inputs', 'method', 'hello'], exitsZero),
  'cli-build-output-method': cli(['build', 'output', 'method', 'hello'], exitsZero),
  'cli-build-runner-method': cli(['build', 'runner', 'method', 'hello'], exitsZero),
};
