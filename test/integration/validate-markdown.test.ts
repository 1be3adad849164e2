/**
 * `POST /v1/validate` with `render: ["markdown"]` (docs/api.md#rendered-markdown): `rendered_markdown` on both arms,
 * absent unless asked, and an unknown token ignored.
 */
import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp } from '../helpers/test-app.js';

const app = buildTestApp();

function validate(body: object) {
  return request(app).post('/v1/validate').send(body);
}

/** A valid bundle with declared concepts (one structured, one refining), a list and an optional input, a signature. */
const REVIEW = [
  'domain = "review"',
  'main_pipe = "review_all"',
  '',
  '[concept.Draft]',
  'description = "A draft | with a <b>pipe</b>"',
  '',
  '[concept.Draft.structure]',
  'title = "The title"',
  'body = "The body"',
  '',
  '[concept.Verdict]',
  'description = "A verdict"',
  'refines = "Text"',
  '',
  '[pipe.review_all]',
  'type = "PipeSequence"',
  'description = "Review every draft"',
  'inputs = { drafts = "Draft[]", note = "Text?" }',
  'output = "Verdict"',
  'steps = [{ pipe = "judge", result = "verdict" }]',
  '',
  '[pipe.judge]',
  'description = "Judge the drafts"',
  'inputs = { drafts = "Draft[]" }',
  'output = "Verdict"',
  '',
].join('\n');

const GREET = [
  'domain = "greet"',
  'main_pipe = "greet_person"',
  '',
  '[pipe.greet_person]',
  'type = "PipeLLM"',
  'description = "Greet"',
  'inputs = { name = "Text" }',
  'output = "Text"',
  'prompt = "Hello $name"',
  '',
].join('\n');

describe('POST /v1/validate with render: ["markdown"]', () => {
  it('should render the valid verdict: its pipes and the concepts the bundle declares', async () => {
    const response = await validate({ mthds_contents: [REVIEW], render: ['markdown'], allow_signatures: true }).expect(
      200,
    );
    expect(response.body.is_valid).to.equal(true);
    expect(response.body.rendered_markdown).to.equal(
      [
        '# Validation passed',
        '',
        'MTHDS content validated successfully: 2 pipes and 2 concepts in 1 bundle.',
        '',
        '- Main pipe: `review.review_all`',
        '- Runnable: no: 1 contract-only pipe to implement (`review.judge`)',
        '- Warnings: 0',
        '',
        '## Pipes',
        '',
        '| Pipe | Type | Inputs | Output | Dry run |',
        '|---|---|---|---|---|',
        '| `review.judge` | PipeSignature | `drafts`: `review.Draft[]` | `review.Verdict` | contract only |',
        '| `review.review_all` | PipeSequence | `drafts`: `review.Draft[]`, `note`: `native.Text?` | `review.Verdict` | SUCCESS |',
        '',
        '## Concepts',
        '',
        '| Concept | Refines | Structure | Description |',
        '|---|---|---|---|',
        '| `review.Draft` | — | 2 fields | A draft \\| with a \\<b>pipe\\</b> |',
        '| `review.Verdict` | `native.Text` | — | A verdict |',
        '',
      ].join('\n'),
    );
  });

  it('should render the invalid verdict: each item with where it is', async () => {
    const broken = GREET.replace('main_pipe = "greet_person"', 'main_pipe = "greet_persn"');
    const response = await validate({
      mthds_contents: [broken],
      mthds_sources: ['greet.mthds'],
      render: ['markdown'],
    }).expect(200);
    expect(Object.keys(response.body)).to.deep.equal([
      'is_valid',
      'validation_errors',
      'pending_signatures',
      'is_runnable',
      'message',
      'rendered_markdown',
    ]);
    expect(response.body.rendered_markdown).to.equal(
      [
        '# Validation failed',
        '',
        '1 error found by static validation; the method cannot run until it is fixed.',
        '',
        '## Errors',
        '',
        '### 1. `unresolved_pipe_dependency` (blueprint_validation)',
        '',
        "main_pipe 'greet_persn' is not a pipe of this bundle (its pipes: greet_person); define [pipe.greet_persn] here or fix the name.",
        '',
        '- Where: file `greet.mthds`, domain `greet`, field `main_pipe`',
        '- Unresolved pipe: `greet_persn`',
        '',
      ].join('\n'),
    );
  });

  it('should say when the dry run found the errors', async () => {
    const funcs =
      'domain = "funcs"\nmain_pipe = "call"\n[pipe.call]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "my_module.my_function"\n';
    const response = await validate({ mthds_contents: [funcs], render: ['markdown'] }).expect(200);
    expect(response.body.rendered_markdown).to.match(
      /^# Validation failed\n\n1 error found by the dry run; the method cannot run until it is fixed\.\n\n## Errors\n\n### 1\. `DryRunError` \(dry_run\)\n\nDry run of pipe 'funcs\.call' failed: .*\n\n- Where: pipe `funcs\.call`\n$/,
    );
  });

  it('should render nothing without render, and ignore unknown tokens', async () => {
    /** The members of a valid report beside `graph_spec` (a dry run's graph carries its own ids and times). */
    const members = async (body: object) => {
      const { graph_spec: _graph, ...rest } = (await validate(body).expect(200)).body;
      return rest;
    };
    const plain = await members({ mthds_contents: [GREET] });
    expect(plain).to.not.have.property('rendered_markdown');
    expect(await members({ mthds_contents: [GREET], render: ['html'] })).to.deep.equal(plain);
    const { rendered_markdown, ...rest } = await members({ mthds_contents: [GREET], render: ['html', 'markdown'] });
    expect(rest).to.deep.equal(plain);
    expect(rendered_markdown).to.match(/^# Validation passed\n/);
  });

  it('should refuse a render that is not a list of strings (422)', async () => {
    const response = await validate({ mthds_contents: [GREET], render: 'markdown' }).expect(422);
    expect(response.body.error_type).to.equal('ValidationError');
  });
});
