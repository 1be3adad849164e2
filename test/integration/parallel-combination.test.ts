/**
 * PipeParallel without `combined_output` (pipelex-api 0.16, docs/pipes.md#pipeparallel) end to end: a Composite or
 * structured output receives the branch results on /v1/execute (mock inference), the strict rules on /v1/validate,
 * and the legacy `combined_output` accepted in compat mode but kept off the 0.16 `bundle_blueprint`.
 */
import { expect } from 'chai';
import request from 'supertest';
import { referenceErrors } from '../helpers/reference-openapi.js';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = (output: string, extra = '') =>
  [
    'domain = "reviews"',
    'main_pipe = "review"',
    '[concept.Review]',
    'description = "Both readings of a draft"',
    '[concept.Review.structure]',
    'tone = { type = "text", description = "How it sounds", required = true }',
    'score = { type = "number", description = "How good it is", required = true }',
    'notes = { type = "concept", concept_ref = "Text", description = "Free notes" }',
    '[pipe.review]',
    'type = "PipeSequence"',
    'description = "Reads a draft twice, then sums up"',
    'inputs = { draft = "Text" }',
    'output = "Text"',
    'steps = [',
    '  { pipe = "read_both", result = "both" },',
    '  { pipe = "sum_up", result = "summary" },',
    ']',
    '[pipe.read_both]',
    'type = "PipeParallel"',
    'description = "Reads the tone and scores the draft at once"',
    'inputs = { draft = "Text" }',
    `output = "${output}"`,
    'branches = [',
    '  { pipe = "read_tone", result = "tone" },',
    '  { pipe = "score_draft", result = "score" },',
    ']',
    extra,
    '[pipe.read_tone]',
    'type = "PipeCompose"',
    'description = "The tone"',
    'inputs = { draft = "Text" }',
    'output = "Text"',
    'template = "calm: {{ draft }}"',
    '[pipe.score_draft]',
    'type = "PipeLLM"',
    'description = "A score"',
    'inputs = { draft = "Text" }',
    'output = "Number"',
    'prompt = "Score $draft"',
    '[pipe.sum_up]',
    'type = "PipeCompose"',
    'description = "Sums up"',
    `inputs = { both = "${output}" }`,
    'output = "Text"',
    'template = "{{ both.tone }} / {{ both.score }}"',
  ].join('\n');

const app = buildTestApp();

describe('PipeParallel combination (no combined_output)', () => {
  it('should store {<result>: <content>} as a Composite output and let a template read it', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [BUNDLE('Composite')], inputs: { draft: 'Hello' } })
      .expect(200);
    const root = response.body.pipe_output.working_memory.root;
    expect(root.both.concept.code).to.equal('Composite');
    expect(root.both.content.tone).to.deep.equal({ text: 'calm: Hello' });
    expect(root.both.content.score).to.have.property('number');
    expect(root.summary.content.text).to.match(/^calm: Hello \/ [\d.]+$/);
  });

  it('should fill a structured output field by field (scalars unwrapped) and validate it', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [BUNDLE('Review')], inputs: { draft: 'Hello' } })
      .expect(200);
    const both = response.body.pipe_output.working_memory.root.both;
    expect(both.concept.code).to.equal('Review');
    expect(both.content.tone).to.equal('calm: Hello');
    expect(both.content.score).to.be.a('number');
  });

  it('should validate both forms in strict mode', async () => {
    for (const output of ['Composite', 'Review']) {
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [BUNDLE(output)], validation_mode: 'strict' })
        .expect(200);
      expect(response.body.is_valid, JSON.stringify(response.body.validation_errors)).to.equal(true);
    }
  });

  it('should refuse, in strict mode, an output that cannot hold the results and the retired combined_output', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({
        mthds_contents: [
          BUNDLE('Text', 'combined_output = "Composite"').replace(
            'inputs = { both = "Text" }',
            'inputs = { both = "Text" }',
          ),
        ],
        validation_mode: 'strict',
      })
      .expect(200);
    expect(response.body.is_valid).to.equal(false);
    const items = response.body.validation_errors.map((item: Record<string, unknown>) => [
      item['error_type'],
      item['field_path'],
    ]);
    expect(items).to.deep.include.members([
      ['extra_forbidden', 'pipe.read_both.combined_output'],
      ['inadequate_output_concept', 'pipe.read_both.output'],
    ]);
  });

  it('should accept combined_output in compat mode and leave it out of the 0.16 bundle_blueprint', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [BUNDLE('Composite', 'combined_output = "Composite"')] })
      .expect(200);
    expect(response.body.is_valid, JSON.stringify(response.body.validation_errors)).to.equal(true);
    const parallel = response.body.bundle_blueprint.pipe.read_both;
    expect(parallel).to.not.have.property('combined_output');
    expect(referenceErrors('PipeParallelBlueprint', parallel)).to.deep.equal([]);
  });
});
