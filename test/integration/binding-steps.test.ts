/**
 * PipeSequence binding steps and dotted `batch_over` end to end (docs/data-flow.md#binding-steps): `/v1/validate` of
 * valid and
 * invalid bundles (exact items; the 0.16 wire without binding steps) and `/v1/execute` on the mock.
 */
import { expect } from 'chai';
import request from 'supertest';
import { referenceErrors } from '../helpers/reference-openapi.js';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = [
  'domain = "rounds"',
  'main_pipe = "summarize_round"',
  '[concept.Note]',
  'description = "A note"',
  '[concept.Note.structure]',
  'body = { type = "text", description = "The text", required = true }',
  '[concept.Round]',
  'description = "A round of the ward"',
  '[concept.Round.structure]',
  'lead = { type = "concept", concept_ref = "Note", description = "The lead note", required = true }',
  'notes = { type = "list", item_type = "concept", item_concept_ref = "Note", description = "Notes", required = true }',
  '[pipe.summarize_round]',
  'type = "PipeSequence"',
  'description = "Summarizes the notes of a round, then its lead"',
  'inputs = { round = "Round" }',
  'output = "Text"',
  'steps = [',
  '  { pipe = "summarize_note", batch_over = "round.notes", batch_as = "note", result = "summaries" },',
  '  { from = "round.lead", result = "note" },',
  '  { pipe = "summarize_note", result = "lead_summary" },',
  ']',
  '[pipe.summarize_note]',
  'type = "PipeLLM"',
  'description = "Summarizes a note"',
  'inputs = { note = "Note" }',
  'output = "Text"',
  'prompt = "Summarize $note.body"',
].join('\n');

const app = buildTestApp();

describe('PipeSequence binding steps', () => {
  it('should validate, dry-run every pipe, and leave binding steps out of bundle_blueprint (0.16 SubPipeBlueprint)', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [BUNDLE] })
      .expect(200);
    expect(response.body).to.include({ is_valid: true, is_runnable: true });
    expect(response.body.validated_pipes).to.deep.equal([
      { pipe_ref: 'rounds.summarize_note', status: 'SUCCESS' },
      { pipe_ref: 'rounds.summarize_round', status: 'SUCCESS' },
    ]);
    const sequence = response.body.bundle_blueprint.pipe.summarize_round;
    expect(sequence.steps).to.deep.equal([
      { pipe: 'summarize_note', batch_over: 'round.notes', batch_as: 'note', result: 'summaries' },
      { pipe: 'summarize_note', result: 'lead_summary' },
    ]);
    expect(referenceErrors('PipeSequenceBlueprint', sequence)).to.deep.equal([]);
  });

  it('should run on the mock: the batch over the bound list, then the step reading the bound lead', async () => {
    const round = { concept: 'Round', content: { lead: { body: 'Lead' }, notes: [{ body: 'A' }, { body: 'B' }] } };
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [BUNDLE], inputs: { round } })
      .expect(200);
    const root = response.body.pipe_output.working_memory.root;
    expect(root.summaries.content.items).to.have.length(2);
    expect(root.note).to.deep.include({ stuff_name: 'note', content: { body: 'Lead' } });
    expect(root.note.concept.code).to.equal('Note');
    expect(response.body.pipe_output.working_memory.root).to.have.property('_bound_round_notes');
  });

  it('should report a path that does not resolve, and a binding step input the sequence does not declare', async () => {
    const invalid = BUNDLE.replace(
      '{ from = "round.lead", result = "note" }',
      '{ from = "round.lead.title", result = "note" }',
    ).replace('batch_over = "round.notes"', 'batch_over = "ward.notes"');
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [invalid], mthds_sources: ['rounds.mthds'] })
      .expect(200);
    expect(response.body.is_valid).to.equal(false);
    expect(
      response.body.validation_errors.map((item: { error_type: string; field_path: string; message: string }) => [
        item.error_type,
        item.field_path,
        item.message,
      ]),
    ).to.deep.equal([
      ['missing_input_variable', 'pipe.summarize_round.inputs', response.body.validation_errors[0].message],
      [
        'binding_path_unresolved',
        'pipe.summarize_round.steps[1].from',
        "Pipe 'summarize_round', field 'steps[1].from': the path 'round.lead.title' does not resolve: 'title' is not a bindable field of 'rounds.Note' (fields: body).",
      ],
    ]);
    expect(response.body.validation_errors[0].variable_names).to.deep.equal(['ward']);
  });

  it('should refuse a malformed binding step with binding_step_invalid', async () => {
    const invalid = BUNDLE.replace(
      '{ from = "round.lead", result = "note" }',
      '{ from = "round.lead[0]", result = "note" }',
    );
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [invalid], mthds_sources: ['rounds.mthds'] })
      .expect(200);
    expect(response.body.validation_errors).to.deep.equal([
      {
        category: 'blueprint_validation',
        message:
          "Pipe 'summarize_round', field 'steps[1].from': \"round.lead[0]\" is not a binding path: write a root name then .field segments (letters, digits, _).",
        error_type: 'binding_step_invalid',
        source: 'rounds.mthds',
        pipe_code: 'summarize_round',
        domain_code: 'rounds',
        field_path: 'pipe.summarize_round.steps[1].from',
        field_name: 'from',
      },
    ]);
  });
});

const BINDER_BUNDLE = [
  'domain = "shelf"',
  'main_pipe = "summarize_binder"',
  '[concept.Sheet]',
  'description = "A sheet"',
  '[concept.Sheet.structure]',
  'body = { type = "text", description = "The text", required = true }',
  '[concept.Binder]',
  'description = "A binder, maybe empty"',
  '[concept.Binder.structure]',
  'pages = { type = "list", item_type = "concept", item_concept_ref = "Sheet", description = "Its pages" }',
  '[pipe.summarize_binder]',
  'type = "PipeSequence"',
  'description = "Summarizes every page of a binder, when there is one"',
  'inputs = { binder = "Binder?" }',
  'output = "Text[]"',
  'steps = [{ pipe = "summarize_page", batch_over = "binder.pages", batch_as = "page", result = "summaries" }]',
  '[pipe.summarize_page]',
  'type = "PipeLLM"',
  'description = "Summarizes a page"',
  'inputs = { page = "Sheet" }',
  'output = "Text"',
  'prompt = "Summarize $page.body"',
].join('\n');

interface GraphNodeBody {
  id: string;
  pipe_code: string;
  pipe_type: string;
  status: string;
  skip_reason?: string;
  io: { inputs: { name: string }[]; outputs: { name: string }[] };
}

describe('a lifted inline batch step in the graph (docs/language.md#optionality-presence-markers-and-absences)', () => {
  it('should give the batch a skipped node with its reason, and its empty list a skipped note', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [BINDER_BUNDLE], inputs: {} })
      .expect(200);
    expect(response.body.state).to.equal('COMPLETED');
    const memory = response.body.pipe_output.working_memory;
    expect(memory.root.summaries.content).to.deep.equal({ items: [] });
    expect(memory.absences).to.deep.equal({
      binder: {
        variable_name: 'binder',
        kind: 'not_provided',
        reason: "the caller did not provide the optional input 'binder'",
        producing_pipe: null,
        upstream: null,
      },
      summaries: {
        variable_name: 'summaries',
        kind: 'skipped',
        reason: "the batch of 'summarize_page' over 'binder.pages' was skipped: 'binder' is absent",
        producing_pipe: 'summarize_binder',
        upstream: {
          variable_name: 'binder',
          kind: 'not_provided',
          reason: "the caller did not provide the optional input 'binder'",
          producing_pipe: null,
          upstream: null,
        },
      },
    });
    const graph = response.body.pipe_output.graph_spec;
    const nodes = graph.nodes as GraphNodeBody[];
    expect(nodes.map((node) => [node.pipe_code, node.pipe_type, node.status, node.skip_reason ?? null])).to.deep.equal([
      ['summarize_binder', 'PipeSequence', 'succeeded', null],
      ['summarize_page_batch', 'PipeBatch', 'skipped', "skipped because input 'binder.pages' is absent"],
    ]);
    expect(nodes[1]!.io.inputs).to.deep.equal([]);
    expect(nodes[1]!.io.outputs.map((item) => item.name)).to.deep.equal(['summaries']);
    const contains = (graph.edges as { kind: string; source: string; target: string }[]).filter(
      (edge) => edge.kind === 'contains',
    );
    expect(contains.map((edge) => [edge.source, edge.target])).to.deep.equal([[nodes[0]!.id, nodes[1]!.id]]);
    expect(referenceErrors('GraphSpec', graph)).to.deep.equal([]);
  });

  it('should give a batch that runs a succeeded node, not a skipped one', async () => {
    const binder = { concept: 'Binder', content: { pages: [{ body: 'one' }] } };
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [BINDER_BUNDLE], inputs: { binder } })
      .expect(200);
    const graph = response.body.pipe_output.graph_spec;
    const nodes = graph.nodes as GraphNodeBody[];
    expect(nodes.map((node) => [node.pipe_code, node.status])).to.deep.equal([
      ['summarize_binder', 'succeeded'],
      ['summarize_page_batch', 'succeeded'],
      ['summarize_page', 'succeeded'],
    ]);
    expect(nodes[1]).to.not.have.property('skip_reason');
    expect(referenceErrors('GraphSpec', graph)).to.deep.equal([]);
  });
});
