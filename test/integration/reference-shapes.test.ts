import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { corpusJson, corpusMethodBundles, corpusSampleFiles, methodClosureFiles, sample } from '../helpers/corpus.js';
import { referenceErrors } from '../helpers/reference-openapi.js';
import { buildTestApp } from '../helpers/test-app.js';

const app = buildTestApp();

const INVALID_SAMPLES = readdirSync(new URL('../../../shared/corpus/pipelex-api-samples/invalid/', import.meta.url))
  .filter((file) => file.endsWith('.mthds'))
  .map((file) => `invalid/${file.replace('.mthds', '')}`)
  .sort();

async function validate(body: object) {
  return (await request(app).post('/v1/validate').send(body).expect(200)).body;
}

function verdictErrors(body: { is_valid: boolean }) {
  return referenceErrors(body.is_valid ? 'ValidReport' : 'InvalidReport', body);
}

describe('wire shapes against the reference OpenAPI schemas', () => {
  describe('the reference validator', () => {
    it('should refuse a member the reference closes out (so the checks below can fail)', () => {
      const record = {
        model_type: 'llm',
        inference_model_name: 'm',
        inference_model_id: 'm',
        nb_tokens_by_category: { input: 1 },
      };
      expect(referenceErrors('TokensUsageRecord', record)).to.deep.equal([]);
      expect(referenceErrors('TokensUsageRecord', { ...record, backend: 'mock' })).to.deep.include.members([
        {
          instancePath: '',
          schemaPath: '#/additionalProperties',
          keyword: 'additionalProperties',
          params: { additionalProperty: 'backend' },
          message: 'must NOT have additional properties',
        },
      ]);
    });
  });

  describe('POST /v1/validate', () => {
    for (const file of corpusSampleFiles()) {
      const name = file.replace('.mthds', '');
      it(`should answer a ValidReport of the reference for ${name}`, async () => {
        const body = await validate({ mthds_contents: [sample(name)], allow_signatures: true });
        expect(body.is_valid).to.equal(true);
        expect(verdictErrors(body)).to.deep.equal([]);
      });
    }

    for (const name of INVALID_SAMPLES) {
      it(`should answer a verdict of the reference for ${name}`, async () => {
        expect(verdictErrors(await validate({ mthds_contents: [sample(name)] }))).to.deep.equal([]);
      });
    }

    for (const bundle of corpusMethodBundles()) {
      it(`should answer a ValidReport of the reference for the published method ${bundle}`, async () => {
        const files = methodClosureFiles(bundle);
        const body = await validate({
          mthds_contents: files.map((file) => file.content),
          mthds_sources: files.map((file) => file.source),
        });
        expect(body.is_valid).to.equal(true);
        expect(verdictErrors(body)).to.deep.equal([]);
      });
    }

    it('should report a fixed-count output as variable, with its count in item_count', async () => {
      const body = await validate({ mthds_contents: [sample('fashion_moodboard')] });
      const { json_schema, ...output } = body.pipe_io_contracts['fashion_moodboard.generate_inspirations'].output;
      expect(output).to.deep.equal({
        concept_ref: 'fashion_moodboard.FashionInspiration',
        multiplicity: 'variable',
        item_count: 5,
        optional: false,
      });
      expect(json_schema).to.include({
        title: 'ListContent[fashion_moodboard__FashionInspiration]',
        type: 'object',
      });
      expect(json_schema.properties.items).to.deep.equal({
        items: { $ref: '#/$defs/fashion_moodboard__FashionInspiration' },
        title: 'Items',
        type: 'array',
      });
      expect(referenceErrors('PipeOutputContract', output)).to.deep.equal([]);
    });

    it('should write a contract-only pipe in bundle_blueprint without type, as PipeSignatureBlueprint', async () => {
      const body = await validate({ mthds_contents: [sample('draft_with_signature')] });
      const signature = body.bundle_blueprint.pipe.translate_summary;
      expect(signature).to.deep.equal({
        description: 'Translate the summary to French (contract only — not yet implemented)',
        inputs: { summary: 'Summary' },
        output: 'Summary',
        signature_for: 'PipeLLM',
      });
      expect(referenceErrors('PipeSignatureBlueprint', signature)).to.deep.equal([]);
      expect(body.bundle_blueprint.pipe.summarize_document.type).to.equal('PipeLLM');
    });

    it('should name an unknown pipe type unknown_pipe_type', async () => {
      const body = await validate({ mthds_contents: [sample('invalid/bad_pipe_type')] });
      expect(body.validation_errors).to.have.length(1);
      const [item] = body.validation_errors;
      expect(item).to.deep.include({
        category: 'blueprint_validation',
        error_type: 'unknown_pipe_type',
        pipe_code: 'mystery',
        field_path: 'pipe.mystery.type',
      });
      expect(referenceErrors('ValidationErrorItem', item)).to.deep.equal([]);
    });
  });

  describe('POST /v1/execute', () => {
    it('should answer the reference execute response, usage records without backend', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [sample('hello_greeting')],
          inputs: corpusJson('pipelex-api-samples/hello_greeting.inputs.json'),
        })
        .expect(200);
      expect(referenceErrors('PipelexApiExecuteResponse', response.body)).to.deep.equal([]);
      expect(response.body.pipe_output.tokens_usages).to.have.length(1);
      expect(Object.keys(response.body.pipe_output.tokens_usages[0])).to.deep.equal([
        'model_type',
        'inference_model_name',
        'inference_model_id',
        'pipe_code',
        'job_category',
        'unit_job_id',
        'nb_tokens_by_category',
        'cost',
        'started_at',
        'completed_at',
      ]);
      expect(response.body.tokens_usages_backends).to.deep.equal(['mock']);
    });

    it('should answer the reference execute response for a run with a fixed-count list output', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [sample('fashion_moodboard')], inputs: { fashion_target: 'Autumn streetwear' } });
      expect(response.status, JSON.stringify(response.body).slice(0, 400)).to.equal(200);
      expect(referenceErrors('PipelexApiExecuteResponse', response.body)).to.deep.equal([]);
      expect(response.body.tokens_usages_backends).to.have.length(response.body.pipe_output.tokens_usages.length);
    });
  });
});
