/**
 * PipeStructure end to end (docs/pipes.md#pipestructure): `/v1/validate` of valid and invalid bundles (dry run on the
 * mock,
 * exact validation items), and `/v1/execute` against the fake OpenAI-compatible server: the request it receives (model,
 * structuring prompt around the input text, JSON schema of the output concept) and the structured output stored.
 */
import { expect } from 'chai';
import request from 'supertest';
import { completion, type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { referenceErrors } from '../helpers/reference-openapi.js';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = [
  'domain = "hours"',
  'main_pipe = "read_hours"',
  '[concept.OpeningHours]',
  'description = "When a shop is open"',
  '[concept.OpeningHours.structure]',
  'day = { type = "text", description = "Day of the week", required = true }',
  'opens = { type = "integer", description = "Opening hour, 0-23", required = true }',
  '[pipe.read_hours]',
  'type = "PipeStructure"',
  'description = "Reads a line of opening hours"',
  'inputs = { door_notice = "Text" }',
  'output = "OpeningHours"',
  'model = "gpt-4o-mini"',
].join('\n');

const INVALID = [
  'domain = "hours"',
  '[concept.OpeningHours]',
  'description = "When a shop is open"',
  '[concept.OpeningHours.structure]',
  'day = "Day of the week"',
  '[pipe.from_photo]',
  'type = "PipeStructure"',
  'description = "Structures a photo"',
  'inputs = { photo = "Image" }',
  'output = "OpeningHours"',
  '[pipe.to_text]',
  'type = "PipeStructure"',
  'description = "Structures into text"',
  'inputs = { notice = "Text" }',
  'output = "Text"',
  '[pipe.with_prompt]',
  'type = "PipeStructure"',
  'description = "A prompt is not a PipeStructure field"',
  'inputs = { notice = "Text" }',
  'output = "OpeningHours"',
  'prompt = "Read $notice"',
].join('\n');

describe('PipeStructure on /v1/validate', () => {
  const app = buildTestApp();

  it('should validate a PipeStructure bundle by a dry run on the mock, with its blueprint as written', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [BUNDLE] })
      .expect(200);
    expect(response.body).to.include({ is_valid: true, is_runnable: true });
    expect(response.body.bundle_blueprint.pipe.read_hours).to.deep.equal({
      type: 'PipeStructure',
      description: 'Reads a line of opening hours',
      inputs: { door_notice: 'Text' },
      output: 'OpeningHours',
      model: 'gpt-4o-mini',
    });
    expect(referenceErrors('PipeStructureBlueprint', response.body.bundle_blueprint.pipe.read_hours)).to.deep.equal([]);
    expect(response.body.graph_spec.nodes[0]).to.deep.include({
      kind: 'operator',
      pipe_code: 'read_hours',
      pipe_type: 'PipeStructure',
      status: 'succeeded',
    });
  });

  it('should refuse an unknown field, then report the input and output rules', async () => {
    const schema = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [INVALID] })
      .expect(200);
    expect(schema.body.is_valid).to.equal(false);
    expect(schema.body.validation_errors).to.deep.equal([
      {
        category: 'blueprint_validation',
        message:
          "Pipe 'with_prompt' (PipeStructure): unknown key 'prompt' (allowed: type, description, inputs, output, model).",
        error_type: 'extra_forbidden',
        source: null,
        pipe_code: 'with_prompt',
        domain_code: 'hours',
        field_path: 'pipe.with_prompt.prompt',
        field_name: 'prompt',
      },
    ]);
    const withoutPrompt = INVALID.replace('\nprompt = "Read $notice"', '');
    const rules = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [withoutPrompt] })
      .expect(200);
    expect(rules.body.validation_errors).to.deep.equal([
      {
        category: 'pipe_validation',
        message:
          "Pipe 'from_photo': a PipeStructure structures a Text (or a concept refining it), but input 'photo' is 'Image'.",
        error_type: 'input_stuff_spec_mismatch',
        source: null,
        pipe_code: 'from_photo',
        domain_code: 'hours',
        field_path: 'pipe.from_photo.inputs.photo',
        field_name: 'photo',
      },
      {
        category: 'pipe_validation',
        message:
          "Pipe 'to_text': a PipeStructure outputs a structured concept, not the text concept 'Text'; use a PipeLLM for text.",
        error_type: 'inadequate_output_concept',
        source: null,
        pipe_code: 'to_text',
        domain_code: 'hours',
        field_path: 'pipe.to_text.output',
        field_name: 'output',
      },
    ]);
  });
});

describe('PipeStructure through an OpenAI-compatible provider', () => {
  let fake: FakeOpenAiServer;
  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
  });
  afterEach(async () => {
    await fake.close();
  });

  it('should send one structured-output request with the input text and the output schema, and store the answer', async () => {
    fake.respondWith(() => completion(JSON.stringify({ day: 'Monday', opens: 9 })));
    const app = buildTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' });
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [BUNDLE], inputs: { door_notice: 'Open Mondays from 9' } })
      .expect(200);
    expect(fake.requests).to.have.length(1);
    const body = fake.requests[0]!.body;
    expect(fake.requests[0]!.path).to.equal('/v1/chat/completions');
    expect(body.model).to.equal('gpt-4o-mini');
    expect(body.messages).to.deep.equal([
      { role: 'system', content: 'You are a data modeling expert specialized in extracting structure from text.' },
      {
        role: 'user',
        content:
          'Read the following text carefully and produce the requested structured output from it.\n---\nOpen Mondays from 9',
      },
    ]);
    expect(body.response_format!.type).to.equal('json_schema');
    expect(body.response_format!.json_schema!.name).to.equal('OpeningHours');
    const schema = body.response_format!.json_schema!.schema as {
      properties: Record<string, { type: string }>;
      required: string[];
    };
    expect(schema.required).to.deep.equal(['day', 'opens']);
    expect(schema.properties['day']!.type).to.equal('string');
    expect(schema.properties['opens']!.type).to.equal('integer');
    expect(response.body.pipe_output.working_memory.root.main_stuff).to.deep.include({
      stuff_name: 'opening_hours',
      concept: {
        code: 'OpeningHours',
        domain_code: 'hours',
        description: 'When a shop is open',
        structure_class_name: 'OpeningHours',
        refines: null,
      },
      content: { day: 'Monday', opens: 9 },
    });
    expect(response.body.tokens_usages_backends).to.deep.equal(['openai']);
  });
});
