/**
 * Typeless signatures (docs/pipes.md#pipesignature, pipelex-api 0.16 `PipeSignatureBlueprint`): `signature_for`
 * optional,
 * the retired `type = "PipeSignature"` refused as `unknown_pipe_type`, stray keys without a type refused as
 * `missing_pipe_type`, and multi-file reconciliation of a signature with its implementation, through `/v1/validate`
 * and `/v1/execute` on the mock.
 */
import { expect } from 'chai';
import request from 'supertest';
import { referenceErrors } from '../helpers/reference-openapi.js';
import { buildTestApp } from '../helpers/test-app.js';

const PLAN = [
  'domain = "digest"',
  'main_pipe = "digest_notes"',
  '[pipe.digest_notes]',
  'type = "PipeSequence"',
  'description = "Shortens the notes, then titles them"',
  'inputs = { notes = "Text" }',
  'output = "Text"',
  'steps = [{ pipe = "shorten", result = "short" }, { pipe = "title_of", result = "title" }]',
  '[pipe.shorten]',
  'description = "Shortens a text (contract only)"',
  'inputs = { notes = "Text" }',
  'output = "Text"',
  '[pipe.title_of]',
  'type = "PipeLLM"',
  'description = "Titles a text"',
  'inputs = { short = "Text" }',
  'output = "Text"',
  'prompt = "A title for $short"',
].join('\n');

const IMPLEMENTATION = [
  'domain = "digest"',
  '[pipe.shorten]',
  'type = "PipeLLM"',
  'description = "Shortens a text"',
  'inputs = { notes = "Text" }',
  'output = "Text"',
  'prompt = "Shorten @notes"',
].join('\n');

const app = buildTestApp();
const validate = (contents: string[]) =>
  request(app).post('/v1/validate').send({ mthds_contents: contents }).expect(200);

describe('typeless signatures', () => {
  describe('a signature without signature_for', () => {
    it('should validate, pending and not runnable, and go on the wire as PipeSignatureBlueprint without type', async () => {
      const response = await validate([PLAN]);
      expect(response.body).to.include({ is_valid: true, is_runnable: false });
      expect(response.body.pending_signatures).to.deep.equal(['digest.shorten']);
      const signature = response.body.bundle_blueprint.pipe.shorten;
      expect(signature).to.deep.equal({
        description: 'Shortens a text (contract only)',
        inputs: { notes: 'Text' },
        output: 'Text',
      });
      expect(referenceErrors('PipeSignatureBlueprint', signature)).to.deep.equal([]);
    });

    it('should refuse to run it live with 422 PipeSignatureNotExecutableError', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [PLAN], inputs: { notes: 'Long notes' } })
        .expect(422);
      expect(response.body.error_type).to.equal('PipeSignatureNotExecutableError');
    });
  });

  describe('the retired type = "PipeSignature"', () => {
    it('should be an unknown_pipe_type with the migration message', async () => {
      const retired = PLAN.replace('[pipe.shorten]\n', '[pipe.shorten]\ntype = "PipeSignature"\n');
      const response = await validate([retired]);
      expect(response.body.is_valid).to.equal(false);
      expect(response.body.validation_errors).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'shorten', field 'type': 'PipeSignature' is no longer a pipe type. Delete the `type` line: a pipe table without `type` holding only description, inputs, output and signature_for is a contract-only signature.",
          error_type: 'unknown_pipe_type',
          source: null,
          pipe_code: 'shorten',
          domain_code: 'digest',
          field_path: 'pipe.shorten.type',
          field_name: 'type',
        },
      ]);
    });
  });

  describe('a table without type holding other keys', () => {
    it('should be a missing_pipe_type naming them', async () => {
      const stray = PLAN.replace(
        'output = "Text"\n[pipe.title_of]',
        'output = "Text"\nprompt = "Shorten @notes"\n[pipe.title_of]',
      );
      const response = await validate([stray]);
      expect(response.body.validation_errors).to.have.length(1);
      expect(response.body.validation_errors[0]).to.deep.include({
        error_type: 'missing_pipe_type',
        pipe_code: 'shorten',
        field_path: 'pipe.shorten.type',
      });
      expect(response.body.validation_errors[0].message).to.match(
        /^Pipe 'shorten' has no 'type': set one of PipeLLM, .*, PipeBatch\. Without 'type' a pipe is a contract-only signature, which holds only description, inputs, output and signature_for, not 'prompt'\.$/,
      );
    });
  });

  describe('a signature and its implementation in two files of one domain', () => {
    for (const [order, contents] of [
      ['signature first', [PLAN, IMPLEMENTATION]],
      ['implementation first', [IMPLEMENTATION, PLAN]],
    ] as const) {
      it(`should reconcile them (${order}): valid, runnable, and the implementation runs`, async () => {
        const response = await validate([...contents]);
        expect(response.body).to.include({ is_valid: true, is_runnable: true });
        expect(response.body.pending_signatures).to.deep.equal([]);
        const run = await request(app)
          .post('/v1/execute')
          .send({ mthds_contents: contents, inputs: { notes: 'Long notes' } })
          .expect(200);
        expect(Object.keys(run.body.pipe_output.working_memory.root)).to.include.members(['short', 'title']);
      });
    }

    it('should refuse an implementation whose output differs from the signature', async () => {
      const response = await request(app)
        .post('/v1/validate')
        .send({
          mthds_contents: [PLAN, IMPLEMENTATION.replace('output = "Text"', 'output = "Text[]"')],
          mthds_sources: ['plan.mthds', 'shorten.mthds'],
        })
        .expect(200);
      expect(response.body.validation_errors).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'digest.shorten' is declared both as a signature and as a concrete pipe (the other in plan.mthds), with different inputs or output: a signature and its implementation must declare the same inputs and output.",
          error_type: 'duplicate_code',
          source: 'shorten.mthds',
          domain_code: 'digest',
          field_path: 'pipe.shorten',
          pipe_code: 'shorten',
        },
      ]);
    });
  });
});
