import { expect } from 'chai';
import request from 'supertest';
import { MAX_SPEC_KIB } from '../../api/requests/definition-requests.js';
import { sample } from '../helpers/corpus.js';
import { referenceErrors } from '../helpers/reference-openapi.js';
import { buildTestApp } from '../helpers/test-app.js';

/** A PipeLLM definition spec as the SDK's `pipeSpec()` sends it. */
const GREET_PIPE_SPEC = {
  pipe_type: 'PipeLLM',
  spec: { pipe_code: 'greet', description: 'Greet', inputs: { name: 'Text' }, output: 'Text', prompt: 'Hi $name' },
};

const app = buildTestApp();
const HELLO = sample('hello_greeting');
const MISMATCH = sample('invalid/prompt_input_mismatch');
const LEGACY = { mthds_contents: [HELLO], pipe_code: 'write_greeting' };

function post(path: string, body: object) {
  return request(app).post(path).send(body);
}

describe('build routes: the legacy envelope and the agent routes', function () {
  // the first requests start diagnostics threads
  this.timeout(120000);

  describe('the legacy envelope {mthds_contents, pipe_code}', () => {
    it('should answer /v1/build/inputs with the template itself', async () => {
      const response = await post('/v1/build/inputs', LEGACY).expect(200).expect('content-type', 'application/json');
      expect(response.body).to.deep.equal({ name: 'text_value' });
    });

    it('should answer /v1/build/output with the representation itself, in each format', async () => {
      const schema = await post('/v1/build/output', LEGACY).expect(200);
      const primary = await post('/v1/build/output', { files: [{ content: HELLO }], pipe_ref: 'write_greeting' });
      expect(schema.body).to.deep.equal(primary.body.output);
      expect(schema.body.concept).to.equal('native.Text');
      const json = await post('/v1/build/output', { ...LEGACY, format: 'json' }).expect(200);
      expect(json.body).to.deep.equal({ concept: 'native.Text', content: { text: 'text_value' } });
      const python = await post('/v1/build/output', { ...LEGACY, format: 'python' }).expect(200);
      expect(python.body).to.equal('TextContent(text="text_value")\n');
    });

    it('should answer /v1/build/runner with the SDK runner shape and the structures it imports', async () => {
      const response = await post('/v1/build/runner', LEGACY).expect(200);
      const primary = await post('/v1/build/runner', { files: [{ content: HELLO }], pipe_ref: 'write_greeting' });
      expect(response.body).to.deep.equal({
        python_code: primary.body.python_code,
        pipe_code: 'write_greeting',
        success: true,
        message: 'Runner code generated successfully',
        structures: primary.body.structures,
      });
      expect(response.body.python_code).to.include('pipe_code="hello_greeting.write_greeting"');
    });

    it('should read pipe_code as a bare code across the domains, and accept it qualified', async () => {
      const bare = await post('/v1/build/inputs', LEGACY).expect(200);
      const qualified = await post('/v1/build/inputs', { ...LEGACY, pipe_code: 'hello_greeting.write_greeting' });
      expect(qualified.body).to.deep.equal(bare.body);
    });

    it('should answer an invalid closure with a 422 ValidateBundleError carrying the validation items', async () => {
      for (const path of ['/v1/build/inputs', '/v1/build/output', '/v1/build/runner']) {
        const response = await post(path, { mthds_contents: [MISMATCH], pipe_code: 'greet_person' })
          .expect(422)
          .expect('content-type', 'application/problem+json');
        expect(response.body).to.include({ error_type: 'ValidateBundleError', status: 422, instance: path });
        expect(response.body.validation_errors).to.deep.equal([
          {
            category: 'blueprint_validation',
            message:
              "Pipe 'greet_person': the prompt uses 'city', which is not a declared input (declared: name). Add it to inputs or remove it from the prompt.",
            error_type: 'missing_input_variable',
            source: null,
            pipe_code: 'greet_person',
            domain_code: 'prompt_input_mismatch',
            field_path: 'pipe.greet_person.prompt',
            field_name: 'prompt',
            variable_names: ['city'],
          },
        ]);
      }
    });

    it('should refuse an unknown pipe code with a 422', async () => {
      const response = await post('/v1/build/runner', { ...LEGACY, pipe_code: 'nope' }).expect(422);
      expect(response.body.error_type).to.equal('ValidationError');
      expect(response.body.detail).to.match(/^Pipe 'nope' not found in the submitted closure: /);
    });

    it('should refuse a malformed envelope, naming each member', async () => {
      const response = await post('/v1/build/output', { mthds_contents: [], format: 'yaml' }).expect(422);
      expect(response.body.detail).to.equal(
        'body.mthds_contents: Too small: expected array to have >=1 items; body.pipe_code: Invalid input: expected string, received undefined; body.format: Invalid option: expected one of "schema"|"json"|"python"',
      );
    });

    it('should refuse the envelope mixed with the closure selector', async () => {
      const response = await post('/v1/build/inputs', { ...LEGACY, files: [{ content: HELLO }], pipe_ref: 'x' }).expect(
        422,
      );
      expect(response.body.detail).to.equal(
        'body: the legacy envelope {mthds_contents, pipe_code} cannot be combined with `files`, `pipe_ref`; send either {mthds_contents, pipe_code} or the closure selector (files or method_ref, with pipe_ref)',
      );
    });
  });

  describe('the spec request of the build routes, against the reference schemas', () => {
    const files = [{ content: HELLO, source: 'hello.mthds' }];
    for (const [path, component, extra] of [
      ['/v1/build/inputs', 'BuildInputsValidReport', {}],
      ['/v1/build/inputs', 'BuildInputsValidReport', { format: 'toml', explicit: true }],
      ['/v1/build/output', 'BuildOutputValidReport', {}],
      ['/v1/build/output', 'BuildOutputValidReport', { format: 'python' }],
      ['/v1/build/runner', 'BuildRunnerValidReport', {}],
    ] as const) {
      it(`should answer ${path} ${JSON.stringify(extra)} as the reference's ${component}`, async () => {
        const response = await post(path, { files, pipe_ref: 'write_greeting', ...extra }).expect(200);
        expect(response.body.is_valid).to.equal(true);
        expect(referenceErrors(component, response.body)).to.deep.equal([]);
      });
    }

    it('should answer an invalid closure as the reference CrateInvalidReport', async () => {
      const response = await post('/v1/build/inputs', { files: [{ content: MISMATCH }] }).expect(200);
      expect(response.body.is_valid).to.equal(false);
      expect(referenceErrors('CrateInvalidReport', response.body)).to.deep.equal([]);
    });
  });

  describe('POST /v1/build/concept', () => {
    it('should answer the concept as TOML, as the reference BuildConceptResponse', async () => {
      const response = await post('/v1/build/concept', {
        spec: { concept_code: 'Invoice', description: 'An invoice', structure: { total: 'The total' } },
      })
        .expect(200)
        .expect('content-type', 'application/json');
      expect(response.body).to.deep.equal({
        success: true,
        concept_code: 'Invoice',
        toml: '[concept.Invoice]\ndescription = "An invoice"\n\n[concept.Invoice.structure]\ntotal = "The total"\n',
      });
      expect(referenceErrors('BuildConceptResponse', response.body)).to.deep.equal([]);
    });

    it('should refuse a spec that is not a concept table', async () => {
      const response = await post('/v1/build/concept', { spec: { concept_code: 'Invoice' } })
        .expect(422)
        .expect('content-type', 'application/problem+json');
      expect(response.body).to.include({
        error_type: 'ValidationError',
        detail: "Invalid concept spec: Concept 'Invoice', field 'description': is required (a string).",
      });
    });

    it('should refuse a body without a spec object, and a spec over the size limit', async () => {
      const missing = await post('/v1/build/concept', { spec: 'Invoice' }).expect(422);
      expect(missing.body.detail).to.equal('body.spec: Invalid input: expected record, received string');
      const huge = await post('/v1/build/concept', {
        spec: { concept_code: 'Big', description: 'x'.repeat(MAX_SPEC_KIB * 1024) },
      }).expect(422);
      expect(huge.body.detail).to.equal('body.spec: spec exceeds 256 KiB limit');
    });
  });

  describe('POST /v1/build/pipe-spec', () => {
    it('should answer the pipe as TOML, as the reference BuildPipeSpecResponse', async () => {
      const response = await post('/v1/build/pipe-spec', GREET_PIPE_SPEC).expect(200);
      expect(response.body).to.deep.equal({
        success: true,
        pipe_code: 'greet',
        pipe_type: 'PipeLLM',
        toml: '[pipe.greet]\ntype = "PipeLLM"\ndescription = "Greet"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Hi $name"\n',
      });
      expect(referenceErrors('BuildPipeSpecResponse', response.body)).to.deep.equal([]);
    });

    it('should give a definition that validates once pasted into a bundle', async () => {
      const response = await post('/v1/build/pipe-spec', GREET_PIPE_SPEC).expect(200);
      const verdict = await post('/v1/validate', {
        mthds_contents: [`domain = "pasted"\nmain_pipe = "greet"\n\n${response.body.toml}`],
      }).expect(200);
      expect(verdict.body).to.include({ is_valid: true, default_pipe_ref: 'pasted.greet' });
    });

    it('should refuse an unknown pipe type with a 422 naming it', async () => {
      const response = await post('/v1/build/pipe-spec', {
        pipe_type: 'PipeWizardry',
        spec: { pipe_code: 'x' },
      }).expect(422);
      expect(response.body.error_type).to.equal('ValidationError');
      expect(response.body.detail).to.match(/^Invalid pipe spec: Invalid pipe type 'PipeWizardry'\. Must be one of: /);
    });

    it('should refuse an empty or overlong pipe_type', async () => {
      const empty = await post('/v1/build/pipe-spec', { pipe_type: '', spec: {} }).expect(422);
      expect(empty.body.detail).to.equal('body.pipe_type: Too small: expected string to have >=1 characters');
      const long = await post('/v1/build/pipe-spec', { pipe_type: 'P'.repeat(129), spec: {} }).expect(422);
      expect(long.body.detail).to.equal('body.pipe_type: Too big: expected string to have <=128 characters');
    });
  });
});
