/**
 * The official MTHDS JS SDK's build helpers and `mthds build` commands, unchanged, against this server on a real port:
 * the legacy envelope of the build routes and the agent routes
 * (docs/codegen.md#legacy-envelope-mthds_contents-pipe_code, "Definition specs").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { sample } from '../helpers/corpus.js';
import { type MthdsBuildClient, mthdsJsAbsence, mthdsJsClient, printedJson, runMthdsCli } from '../helpers/mthds-js.js';
import { buildTestApp } from '../helpers/test-app.js';

const HELLO = sample('hello_greeting');
const MISMATCH = sample('invalid/prompt_input_mismatch');

describe('the MTHDS JS SDK build helpers against this server', function () {
  // the first requests start diagnostics threads; each CLI run starts a Node process
  this.timeout(120000);
  const app = buildTestApp();
  let server: Server;
  let baseUrl: string;
  let client: MthdsBuildClient;
  let workDir: string;

  before(async function () {
    const absence = mthdsJsAbsence();
    if (absence) {
      console.log(`    skipped: ${absence}`);
      this.skip();
    }
    server = await new Promise<Server>((listening) => {
      const started = app.listen(0, '127.0.0.1', () => listening(started));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = await mthdsJsClient(baseUrl);
    workDir = mkdtempSync(join(tmpdir(), 'mthds-js-build-'));
    writeFileSync(join(workDir, 'hello.mthds'), HELLO);
    writeFileSync(join(workDir, 'mismatch.mthds'), MISMATCH);
  });

  after(async () => {
    if (!server) return;
    await new Promise<void>((closed) => {
      server.close(() => closed());
      server.closeAllConnections();
    });
    rmSync(workDir, { recursive: true, force: true });
  });

  describe('the SDK client', () => {
    it('buildInputs should resolve with the inputs template', async () => {
      expect(await client.buildInputs({ mthds_contents: [HELLO], pipe_code: 'write_greeting' })).to.deep.equal({
        name: 'text_value',
      });
    });

    it('buildOutput should resolve with the representation in the format asked', async () => {
      const json = await client.buildOutput({ mthds_contents: [HELLO], pipe_code: 'write_greeting', format: 'json' });
      expect(json).to.deep.equal({ concept: 'native.Text', content: { text: 'text_value' } });
      const schema = (await client.buildOutput({ mthds_contents: [HELLO], pipe_code: 'write_greeting' })) as {
        concept: string;
        content: { type: string };
      };
      expect(schema.concept).to.equal('native.Text');
      expect(schema.content.type).to.equal('object');
    });

    it('buildRunner should resolve with the SDK BuildRunnerResponse', async () => {
      const runner = await client.buildRunner({ mthds_contents: [HELLO], pipe_code: 'write_greeting' });
      const primary = await request(app)
        .post('/v1/build/runner')
        .send({ files: [{ content: HELLO }], pipe_ref: 'write_greeting' })
        .expect(200);
      expect(runner).to.include({
        python_code: primary.body.python_code,
        pipe_code: 'write_greeting',
        success: true,
        message: 'Runner code generated successfully',
      });
    });

    it('buildRunner should reject an invalid bundle with the 422 problem in its message', async () => {
      const failure = await client.buildRunner({ mthds_contents: [MISMATCH], pipe_code: 'greet_person' }).then(
        () => expect.fail('buildRunner resolved'),
        (error: Error) => error,
      );
      expect(failure.message).to.match(
        new RegExp(`^API POST ${baseUrl}/v1/build/runner failed \\(422\\): \\{.*"error_type":"ValidateBundleError"`),
      );
    });

    it('concept should resolve with the concept as TOML', async () => {
      expect(await client.concept({ spec: { concept_code: 'Greeting', description: 'A greeting' } })).to.deep.equal({
        success: true,
        concept_code: 'Greeting',
        toml: '[concept.Greeting]\ndescription = "A greeting"\n',
      });
    });

    it('pipeSpec should resolve with the pipe as TOML', async () => {
      const spec = { pipe_code: 'greet', description: 'Greet', inputs: { name: 'Text' }, output: 'Text', prompt: 'Hi' };
      expect(await client.pipeSpec({ pipe_type: 'PipeLLM', spec })).to.deep.equal({
        success: true,
        pipe_code: 'greet',
        pipe_type: 'PipeLLM',
        toml: '[pipe.greet]\ntype = "PipeLLM"\ndescription = "Greet"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi"\n',
      });
    });
  });

  describe('the mthds CLI (mthds build … pipe)', () => {
    const cli = (...args: string[]) => runMthdsCli(args, { baseUrl, home: workDir, cwd: workDir });

    it('build inputs should print the inputs template', async () => {
      const run = await cli('build', 'inputs', 'pipe', 'hello.mthds', '--pipe', 'write_greeting');
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(printedJson(run.stdout)).to.deep.equal({ name: 'text_value' });
    });

    it('build output should print the representation', async () => {
      const run = await cli('build', 'output', 'pipe', 'hello.mthds', '--pipe', 'write_greeting', '--format', 'json');
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(printedJson(run.stdout)).to.deep.equal({ concept: 'native.Text', content: { text: 'text_value' } });
    });

    it('build runner should write the runner script', async () => {
      const run = await cli('build', 'runner', 'pipe', 'hello.mthds', '--pipe', 'write_greeting', '-o', 'runner.py');
      expect(run.code, run.stdout + run.stderr).to.equal(0);
      expect(run.stdout).to.include('Runner written to runner.py');
      const primary = await request(app)
        .post('/v1/build/runner')
        .send({ files: [{ content: HELLO }], pipe_ref: 'write_greeting' })
        .expect(200);
      expect(readFileSync(join(workDir, 'runner.py'), 'utf8')).to.equal(primary.body.python_code);
    });

    it('build runner should fail with the server problem for an invalid bundle', async () => {
      const run = await cli('build', 'runner', 'pipe', 'mismatch.mthds', '--pipe', 'greet_person');
      expect(run.code).to.equal(1);
      expect(run.stdout + run.stderr).to.include('/v1/build/runner failed (422)');
      expect(run.stdout + run.stderr).to.include('"error_type":"ValidateBundleError"');
    });
  });
});
