/**
 * Optionality over HTTP (docs/language.md#optionality-presence-markers-and-absences): `/v1/validate` reports the
 * liftable pipes and the optional contracts;
 * `/v1/execute` (mock inference) omits `?` entry inputs, lifts plain consumers, fails on `!`, completes with an absent
 * main output, and each controller handles absence.
 */
import { expect } from 'chai';
import request from 'supertest';
import { OPTIONAL_BUNDLE } from '../helpers/optional-bundle.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { referenceErrors } from '../helpers/reference-openapi.js';
import { buildTestApp } from '../helpers/test-app.js';

interface Absence {
  variable_name: string;
  kind: string;
  reason: string;
  producing_pipe: string | null;
  upstream: Absence | null;
}

interface RunBody {
  state: string;
  main_stuff_name: string | null;
  absent?: boolean;
  absence?: Absence;
  pipe_output: {
    working_memory: {
      root: Record<string, { content: unknown }>;
      aliases: Record<string, string>;
      absences?: Record<string, Absence>;
    };
  };
}

const NOT_PROVIDED: Absence = {
  variable_name: 'hint',
  kind: 'not_provided',
  reason: "the caller did not provide the optional input 'hint'",
  producing_pipe: null,
  upstream: null,
};

const ENRICHED_SKIPPED: Absence = {
  variable_name: 'enriched',
  kind: 'skipped',
  reason: "pipe 'enrich_hint' was skipped: its input 'hint' is absent",
  producing_pipe: 'enrich_hint',
  upstream: NOT_PROVIDED,
};

describe('optionality over HTTP', () => {
  const app = buildTestApp();

  async function run(pipe: string, inputs: Record<string, unknown>): Promise<RunBody> {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [OPTIONAL_BUNDLE], pipe_code: pipe, inputs });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const body = response.body as RunBody;
    expect(body.state).to.equal('COMPLETED');
    return body;
  }

  describe('POST /v1/validate', () => {
    it('should report the liftable pipes, the optional contracts and no warning', async () => {
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [OPTIONAL_BUNDLE] })
        .expect(200);
      expect(response.body.is_valid, JSON.stringify(response.body)).to.equal(true);
      expect(response.body.liftable_pipes).to.deep.equal([
        {
          pipe_ref: 'brief.enrich_hint',
          within_pipe_ref: 'brief.brief_flow',
          skipped_when_absent: ['hint'],
          absence_source: "optional input 'hint' of 'brief.brief_flow'",
        },
        {
          pipe_ref: 'brief.enrich_hint',
          within_pipe_ref: 'brief.only_enrich',
          skipped_when_absent: ['hint'],
          absence_source: "optional input 'hint' of 'brief.only_enrich'",
        },
        {
          pipe_ref: 'brief.enrich_hint',
          within_pipe_ref: 'brief.both',
          skipped_when_absent: ['hint'],
          absence_source: "optional input 'hint' of 'brief.both'",
        },
      ]);
      expect(response.body.warnings).to.deep.equal([]);
      const contracts = response.body.pipe_io_contracts;
      expect(contracts['brief.brief_flow'].inputs.hint).to.include({ optional: true, presence: 'optional' });
      expect(contracts['brief.brief_flow'].inputs.topic).to.include({ optional: false, presence: 'plain' });
      expect(contracts['brief.insist'].inputs.hint).to.include({ optional: false, presence: 'force' });
      expect(contracts['brief.only_enrich'].output).to.include({ optional: true, multiplicity: 'single' });
    });

    it('should describe an optional input in input_form as not required and not gating', async () => {
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [OPTIONAL_BUNDLE], views: ['input_form'] })
        .expect(200);
      const text = { concept_ref: 'native.Text', description: 'A text' };
      expect(response.body.input_form['brief.brief_flow']).to.deep.equal({
        fields: [
          { kind: 'prose', name: 'topic', ...text, required: true, presence: 'plain', gating: true },
          { kind: 'prose', name: 'hint', ...text, required: false, presence: 'optional', gating: false },
        ],
      });
      expect(response.body.input_form['brief.insist'].fields).to.deep.equal([
        { kind: 'prose', name: 'hint', ...text, required: true, presence: 'force', gating: true },
      ]);
    });

    it('should refuse the marker grammar and an unguarded optional read with their items', async () => {
      const broken = OPTIONAL_BUNDLE.replace(
        'template = "Brief on {{ topic.text }}{% if enriched %}, enriched{% endif %}"',
        'template = "Brief on {{ topic.text }}, {{ enriched.text }}"',
      ).replace('output = "Text[]"\nbranch_pipe_code', 'output = "Text[]?"\nbranch_pipe_code');
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [broken] })
        .expect(200);
      expect(response.body.is_valid).to.equal(false);
      expect(
        response.body.validation_errors.map((item: Record<string, unknown>) => [item['error_type'], item['pipe_code']]),
      ).to.deep.equal([['optional_marker_invalid', 'long_topics']]);
      const guarded = OPTIONAL_BUNDLE.replace(
        'template = "Brief on {{ topic.text }}{% if enriched %}, enriched{% endif %}"',
        'template = "Brief on {{ topic.text }}, {{ enriched.text }}"',
      );
      const unguarded = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [guarded] })
        .expect(200);
      expect(
        unguarded.body.validation_errors.map((item: Record<string, unknown>) => [
          item['error_type'],
          item['pipe_code'],
          item['variable_names'],
        ]),
      ).to.deep.equal([['optional_input_unguarded', 'write_brief', ['enriched']]]);
    });

    it('should refuse a sequence whose last step may be skipped when its output is not optional', async () => {
      const broken = OPTIONAL_BUNDLE.replace(
        'inputs = { hint = "Text?" }\noutput = "Text?"\nsteps = [{ pipe = "enrich_hint"',
        'inputs = { hint = "Text?" }\noutput = "Text"\nsteps = [{ pipe = "enrich_hint"',
      );
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [broken] })
        .expect(200);
      expect(
        response.body.validation_errors.map((item: Record<string, unknown>) => [item['error_type'], item['pipe_code']]),
      ).to.deep.equal([['optional_not_handled', 'only_enrich']]);
    });
  });

  describe('POST /v1/execute', () => {
    it('should record an omitted optional entry input as not provided and lift the step that needs it', async () => {
      const body = await run('brief_flow', { topic: 'tides' });
      const memory = body.pipe_output.working_memory;
      expect(memory.absences).to.deep.equal({ hint: NOT_PROVIDED, enriched: ENRICHED_SKIPPED });
      expect(body.main_stuff_name).to.equal('brief');
      expect(memory.root['brief']!.content).to.deep.equal({ text: 'Brief on tides' });
      expect(body).to.not.have.any.keys('absent', 'absence');
    });

    it('should run every step when the optional input is given', async () => {
      const body = await run('brief_flow', { topic: 'tides', hint: 'moon' });
      const memory = body.pipe_output.working_memory;
      expect(memory).to.not.have.property('absences');
      expect(memory.root['brief']!.content).to.deep.equal({ text: 'Brief on tides, enriched' });
      expect(memory.root['enriched']!.content).to.have.property('text').that.is.a('string');
    });

    it('should complete with an absent main output and its provenance', async () => {
      const body = await run('only_enrich', {});
      expect(body.main_stuff_name).to.equal('enriched');
      expect(body.absent).to.equal(true);
      expect(body.absence).to.deep.equal(ENRICHED_SKIPPED);
      expect(body.pipe_output.working_memory.root).to.deep.equal({});
    });

    it('should fail with OptionalValueAbsentError when a forced input is absent', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [OPTIONAL_BUNDLE], pipe_code: 'insist_flow', inputs: {} })
        .expect(500);
      expect(response.headers['content-type']).to.equal('application/problem+json');
      expect(response.body).to.include({
        error_type: 'OptionalValueAbsentError',
        error_domain: 'runtime',
        detail:
          "Pipe 'insist': the force-marked input 'hint' is absent: 'hint' not provided (the caller did not provide the optional input 'hint').",
      });
    });

    it('should still refuse a plain entry input left out', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [OPTIONAL_BUNDLE], pipe_code: 'brief_flow', inputs: { hint: 'moon' } })
        .expect(422);
      expect(response.body.detail).to.include('topic');
    });

    it('should mark a lifted pipe as a skipped node of the graph, with its reason', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [OPTIONAL_BUNDLE], pipe_code: 'brief_flow', inputs: { topic: 'tides' } })
        .expect(200);
      const graph = response.body.pipe_output.graph_spec;
      const nodes = graph.nodes as { pipe_code: string; status: string; skip_reason?: string; io: unknown }[];
      expect(nodes.map((node) => [node.pipe_code, node.status])).to.deep.equal([
        ['brief_flow', 'succeeded'],
        ['enrich_hint', 'skipped'],
        ['write_brief', 'succeeded'],
      ]);
      const skipped = nodes[1]!;
      expect(skipped.skip_reason).to.equal("skipped because input 'hint' is absent");
      expect(skipped.io).to.deep.equal({ inputs: [], outputs: [] });
      expect(nodes[0]).to.not.have.property('skip_reason');
      expect(referenceErrors('GraphSpec', graph)).to.deep.equal([]);
    });

    it('should deliver the empty list of a lifted plural step with its skipped note in absences', async () => {
      const bundle = `${OPTIONAL_BUNDLE}
[pipe.idea_list]
type = "PipeSequence"
description = "Ideas from the hint, none without one"
inputs = { hint = "Text?" }
output = "Text[]"
steps = [{ pipe = "enrich_hint", result = "ideas", nb_output = 3 }]
`;
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], pipe_code: 'idea_list', inputs: {} })
        .expect(200);
      expect(response.body).to.include({ state: 'COMPLETED', main_stuff_name: 'ideas' });
      expect(response.body).to.not.have.property('absent');
      const memory = response.body.pipe_output.working_memory;
      expect(memory.root.ideas.content).to.deep.equal({ items: [] });
      expect(memory.absences).to.deep.equal({
        hint: NOT_PROVIDED,
        ideas: {
          variable_name: 'ideas',
          kind: 'skipped',
          reason: "pipe 'enrich_hint' was skipped: its input 'hint' is absent",
          producing_pipe: 'enrich_hint',
          upstream: NOT_PROVIDED,
        },
      });
      expect(referenceErrors('WorkingMemory', memory)).to.deep.equal([]);
    });

    it('should run a PipeExtract and a PipeStructure whose optional sole input is absent', async () => {
      const bundle = [
        'domain = "scan"',
        '[concept.Card]',
        'description = "A filing card"',
        '[concept.Card.structure]',
        'title = { type = "text", description = "The title" }',
        '[pipe.read_scan]',
        'type = "PipeExtract"',
        'description = "The pages of a scan, when there is one"',
        'inputs = { scan = "Document?" }',
        'output = "Page[]"',
        '[pipe.maybe_card]',
        'type = "PipeStructure"',
        'description = "A card from a note, when there is one"',
        'inputs = { note = "Text?" }',
        'output = "Card?"',
      ].join('\n');
      const pages = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], pipe_code: 'read_scan', inputs: {} })
        .expect(200);
      expect(pages.body.state).to.equal('COMPLETED');
      const main = pages.body.pipe_output.working_memory.root[pages.body.main_stuff_name];
      expect(main.content).to.deep.equal({ items: [] });
      const card = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], pipe_code: 'maybe_card', inputs: {} })
        .expect(200);
      expect(card.body).to.include({ state: 'COMPLETED', absent: true });
      expect(card.body.absence).to.include({ kind: 'declared_absent', producing_pipe: 'maybe_card' });
    });

    it('should leave an absent parallel branch out of the combined output and add its absence', async () => {
      const body = await run('both', { topic: 'tides' });
      const memory = body.pipe_output.working_memory;
      expect(memory.absences?.['enriched']).to.deep.equal(ENRICHED_SKIPPED);
      expect(Object.keys(memory.root)).to.include('topic_copy').and.not.include('enriched');
      const main = memory.root[body.main_stuff_name ?? 'main_stuff']!.content as Record<string, unknown>;
      expect(Object.keys(main)).to.deep.equal(['topic_copy']);
    });

    it('should compact the absent results of a batch out of its list', async () => {
      const body = await run('long_topics', { topics: ['sea', 'tides', 'moon'] });
      const main = body.pipe_output.working_memory.root[body.main_stuff_name ?? 'main_stuff']!;
      expect(main.content).to.deep.equal({ items: [{ text: 'tides' }, { text: 'moon' }] });
    });
  });

  describe('POST /v1/execute in queue mode (real Redis, in-process workers)', function () {
    this.timeout(30000);
    let deployment: QueueDeployment;

    before(() => {
      deployment = startQueueDeployment();
    });

    after(async () => {
      await deployment.close();
    });

    it('should carry the absences and the absent main output through the queue', async () => {
      const response = await request(deployment.app)
        .post('/v1/execute')
        .send({ mthds_contents: [OPTIONAL_BUNDLE], pipe_code: 'only_enrich', inputs: {} })
        .expect(200);
      expect(response.body).to.deep.include({ state: 'COMPLETED', main_stuff_name: 'enriched', absent: true });
      expect(response.body.absence).to.deep.equal(ENRICHED_SKIPPED);
      expect(response.body.pipe_output.working_memory.absences).to.deep.equal({
        hint: NOT_PROVIDED,
        enriched: ENRICHED_SKIPPED,
      });
    });
  });
});
