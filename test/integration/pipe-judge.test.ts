/**
 * PipeJudge end to end (docs/language.md#pipejudge): `/v1/validate` of the three question kinds and the multi form (dry
 * run
 * on the deterministic mock, the pipe kept on the 0.16 wire as its contract, exact validation items), `/v1/execute`
 * under mock inference and `INFERENCE_PROFILE=mock`, and against the fake OpenAI-compatible server: the one
 * structured-output request it receives (judgment model, evidence and questions, answer schema) and the verdicts
 * stored, refusals and answers out of kind.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { completion, type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { referenceErrors } from '../helpers/reference-openapi.js';
import { buildTestApp } from '../helpers/test-app.js';

const HEADER = [
  'domain = "inbox"',
  '[concept.Triage]',
  'description = "The triage of a message"',
  '[concept.Triage.structure]',
  'urgent = { type = "concept", concept_ref = "YesNo", description = "Urgent?", required = true }',
  'team = { type = "concept", concept_ref = "Choice", description = "Which team", required = true }',
  'severity = { type = "concept", concept_ref = "Rating", description = "How severe" }',
  '[concept.Urgency]',
  'description = "Whether a message needs an answer today"',
  'refines = "YesNo"',
];

const YES_NO = [
  '[pipe.judge_is_urgent]',
  'type = "PipeJudge"',
  'description = "Does the message need an answer today?"',
  'inputs = { message = "Text" }',
  'output = "Urgency"',
  'model = "@default-judgment"',
  'prompt = "A message from the inbox:\\n@message"',
  'question = "Does this message need an answer today?"',
  'criteria = { yes = "Something is blocked right now", no = "It can wait" }',
  'threshold = 0.7',
];

const CHOICE = [
  '[pipe.route_message]',
  'type = "PipeJudge"',
  'description = "Which team answers?"',
  'inputs = { message = "Text", product = "Text" }',
  'output = "Choice"',
  'model = "@default-judgment"',
  'prompt = "@message"',
  'question = "Which team answers questions about $product?"',
  'options = { billing = "Invoices and payments", support = "" }',
];

const RATING = [
  '[pipe.rate_severity]',
  'type = "PipeJudge"',
  'description = "How severe is the problem?"',
  'inputs = { message = "Text" }',
  'output = "Rating"',
  'model = "@default-judgment"',
  'prompt = "@message"',
  'question = "How severe is the problem?"',
  'levels = [{ label = "Minor" }, { label = "Major" }, { label = "Critical", description = "Nobody can work" }]',
];

const MULTI = [
  '[pipe.triage]',
  'type = "PipeJudge"',
  'description = "Triage a message"',
  'inputs = { message = "Text" }',
  'output = "Triage"',
  'model = "@default-judgment"',
  'prompt = "@message"',
  '[pipe.triage.questions.urgent]',
  'question = "Does it need an answer today?"',
  '[pipe.triage.questions.team]',
  'question = "Which team should answer?"',
  'options = { billing = "", support = "" }',
  '[pipe.triage.questions.severity]',
  'question = "How severe is it?"',
  'levels = ["Cosmetic", "Blocks work"]',
];

const bundleOf = (main: string, ...pipes: string[][]) =>
  [...HEADER.slice(0, 1), `main_pipe = "${main}"`, ...HEADER.slice(1), ...pipes.flat()].join('\n');
const ALL = bundleOf('triage', YES_NO, CHOICE, RATING, MULTI);

describe('PipeJudge on /v1/validate', () => {
  const app = buildTestApp();

  it('should validate the three kinds and the multi form by a dry run on the deterministic mock', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [ALL] })
      .expect(200);
    expect(response.body).to.include({ is_valid: true, is_runnable: true });
    expect(response.body.bundle_blueprint.pipe.judge_is_urgent).to.deep.equal({
      description: 'Does the message need an answer today?',
      inputs: { message: 'Text' },
      output: 'Urgency',
    });
    for (const code of ['judge_is_urgent', 'route_message', 'rate_severity', 'triage'])
      expect(referenceErrors('PipeSignatureBlueprint', response.body.bundle_blueprint.pipe[code])).to.deep.equal([]);
    const node = response.body.graph_spec.nodes[0];
    expect(node).to.deep.include({
      kind: 'operator',
      pipe_code: 'triage',
      pipe_type: 'PipeJudge',
      status: 'succeeded',
    });
    expect(node.io.outputs[0].data).to.deep.equal({
      urgent: { yes_no: true },
      team: { choice: 'billing' },
      severity: { level: 0 },
    });
    expect(response.body.pipe_io_contracts['inbox.triage'].output.json_schema.properties.team).to.be.an('object');
    expect(node.execution_data).to.deep.equal({
      rendered_prompt: '<message>\nmock text 981\n</message>',
      rendered_questions: {
        urgent: 'Does it need an answer today?',
        team: 'Which team should answer?',
        severity: 'How severe is it?',
      },
      resolved_model: '@default-judgment',
      judgment_kinds: { urgent: 'yes_no', team: 'choice', severity: 'rating' },
      answers: { urgent: { yes_no: true }, team: { choice: 'billing' }, severity: { level: 0 } },
    });
    expect(referenceErrors('GraphSpec', response.body.graph_spec)).to.deep.equal([]);
  });

  it("should record the dry run's execution data of a single question: the mock's raw answer, the threshold without a warning", async () => {
    const rated = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [bundleOf('rate_severity', RATING)] })
      .expect(200);
    expect(rated.body.graph_spec.nodes[0].execution_data).to.deep.include({
      rendered_question: 'How severe is the problem?',
      resolved_model: '@default-judgment',
      judgment_kind: 'rating',
      answer: { level: 0 },
    });
    expect(rated.body.graph_spec.nodes[0].io.outputs[0].data).to.deep.equal({ level: 0, label: 'Minor' });
    const urgent = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [bundleOf('judge_is_urgent', YES_NO)] })
      .expect(200);
    const data = urgent.body.graph_spec.nodes[0].execution_data;
    expect(Object.keys(data)).to.deep.equal([
      'rendered_prompt',
      'rendered_question',
      'resolved_model',
      'judgment_kind',
      'answer',
      'threshold',
      'threshold_applied',
    ]);
    expect(data).to.deep.include({
      rendered_question: 'Does this message need an answer today?',
      judgment_kind: 'yes_no',
      answer: { yes_no: true },
      threshold: 0.7,
      threshold_applied: false,
    });
    expect(referenceErrors('GraphSpec', urgent.body.graph_spec)).to.deep.equal([]);
  });

  it('should report the rules of PipeJudge with exact items', async () => {
    const invalid = bundleOf(
      'judge_is_urgent',
      YES_NO.map((line) => (line.startsWith('output') ? 'output = "Choice"' : line)),
      CHOICE.map((line) => (line.startsWith('options') ? 'options = { billing = "" }' : line)),
    );
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [invalid] })
      .expect(200);
    expect(response.body.is_valid).to.equal(false);
    expect(response.body.validation_errors).to.deep.equal([
      {
        category: 'blueprint_validation',
        message: "Pipe 'route_message': options: a choice offers at least 2 options, not 1.",
        error_type: 'invalid_pipe_field',
        source: null,
        pipe_code: 'route_message',
        domain_code: 'inbox',
        field_path: 'pipe.route_message.options',
        field_name: 'options',
      },
      {
        category: 'pipe_validation',
        message:
          'Pipe \'judge_is_urgent\': a PipeJudge asking one yes/no question outputs "YesNo" (or a concept refining it), not "Choice".',
        error_type: 'inadequate_output_concept',
        source: null,
        pipe_code: 'judge_is_urgent',
        domain_code: 'inbox',
        field_path: 'pipe.judge_is_urgent.output',
        field_name: 'output',
      },
    ]);
  });

  it('should refuse a closed table with an unknown key, and a judge without a model when the deck has no default', async () => {
    const unknownKey = bundleOf('triage', [...MULTI, 'weight = 2']);
    const schema = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [unknownKey] })
      .expect(200);
    expect(schema.body.validation_errors.map((item: { error_type: string; field_path: string }) => item)).to.deep.equal(
      [
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'triage' (PipeJudge): unknown key 'weight' (allowed: question, options, levels, criteria, threshold).",
          error_type: 'extra_forbidden',
          source: null,
          pipe_code: 'triage',
          domain_code: 'inbox',
          field_path: 'pipe.triage.questions.severity.weight',
          field_name: 'weight',
        },
      ],
    );
    const withoutModel = bundleOf(
      'judge_is_urgent',
      YES_NO.filter((line) => !line.startsWith('model')),
    );
    const missing = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [withoutModel] })
      .expect(200);
    expect(missing.body.validation_errors).to.deep.equal([
      {
        category: 'pipe_validation',
        message:
          "JudgmentModelMissingError: Pipe 'judge_is_urgent' names no judgment model and the model deck's [judgment] category has no choice_default; set model (e.g. \"@default-judgment\").",
        error_type: 'unknown_validation_error',
        source: null,
        pipe_code: 'judge_is_urgent',
        domain_code: 'inbox',
        field_path: 'pipe.judge_is_urgent.model',
        field_name: 'model',
      },
    ]);
  });
});

describe('PipeJudge input capability on /v1/validate', () => {
  let configDir: string;
  before(() => {
    configDir = mkdtempSync(join(tmpdir(), 'judge-capability-'));
    mkdirSync(join(configDir, 'inference', 'backends'), { recursive: true });
    mkdirSync(join(configDir, 'inference', 'deck'), { recursive: true });
    writeFileSync(
      join(configDir, 'inference', 'backends', 'textonly.toml'),
      '[defaults]\nsdk = "mock"\n\n["text-judge"]\nmodel_type = "llm"\ninputs = ["text"]\n',
    );
    writeFileSync(
      join(configDir, 'inference', 'deck', '9_text_judgment.toml'),
      '[judgment.aliases]\ntext-judgment = "text-judge"\n\n[judgment.waterfalls]\ntext-first = ["text-judge", "gpt-4o-mini"]\neyes-first = ["gpt-4o-mini", "text-judge"]\n',
    );
  });
  after(() => rmSync(configDir, { recursive: true, force: true }));

  it('should refuse an image the judgment model (or the model a waterfall resolves to) does not read, and accept it for a model that reads images', async () => {
    const app = buildTestApp({ SERVICE_CONFIG_DIR: configDir });
    const photo = (model: string) =>
      bundleOf('judge_photo', [
        '[pipe.judge_photo]',
        'type = "PipeJudge"',
        'description = "Is the photo blurry?"',
        'inputs = { photo = "Image" }',
        'output = "YesNo"',
        `model = "${model}"`,
        'prompt = "A photo: @photo"',
        'question = "Is it blurry?"',
      ]);
    const refused = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [photo('@text-judgment')] })
      .expect(200);
    expect(refused.body.validation_errors).to.deep.equal([
      {
        category: 'pipe_validation',
        message:
          "PipeJudgeInputCapabilityError: PipeJudge 'judge_photo' judges input 'photo', which is an image, and its judgment model 'text-judge' does not read images: it reads text. Name a judgment model that reads images, or turn the image into text with a step before this one.",
        error_type: 'unknown_validation_error',
        source: null,
        pipe_code: 'judge_photo',
        domain_code: 'inbox',
        field_path: 'pipe.judge_photo.inputs.photo',
        field_name: 'photo',
      },
    ]);
    const accepted = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [photo('@default-judgment')] })
      .expect(200);
    expect(accepted.body.is_valid, JSON.stringify(accepted.body.validation_errors)).to.equal(true);
    const cascade = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [photo('~text-first')] })
      .expect(200);
    expect(cascade.body.validation_errors).to.deep.equal(refused.body.validation_errors);
    const eyesFirst = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [photo('~eyes-first')] })
      .expect(200);
    expect(eyesFirst.body.is_valid, JSON.stringify(eyesFirst.body.validation_errors)).to.equal(true);
  });
});

describe('PipeJudge routed by a PipeCondition', () => {
  it('should route on the choice key the verdict renders as', async () => {
    const routing = [
      '[pipe.answer_message]',
      'type = "PipeSequence"',
      'description = "Route, then answer"',
      'inputs = { message = "Text", product = "Text" }',
      'output = "Text"',
      'steps = [{ pipe = "route_message", result = "routing" }, { pipe = "dispatch", result = "answer" }]',
      '[pipe.dispatch]',
      'type = "PipeCondition"',
      'description = "Dispatch on the team"',
      'inputs = { routing = "Choice" }',
      'output = "Text"',
      'expression = "routing.choice"',
      'outcomes = { billing = "billing_reply", support = "support_reply" }',
      'default_outcome = "fail"',
      '[pipe.billing_reply]',
      'type = "PipeCompose"',
      'description = "Billing reply"',
      'inputs = { routing = "Choice" }',
      'output = "Text"',
      'template = "Billing answers ({{ routing }})"',
      '[pipe.support_reply]',
      'type = "PipeCompose"',
      'description = "Support reply"',
      'inputs = { routing = "Choice" }',
      'output = "Text"',
      'template = "Support answers ({{ routing }})"',
    ];
    const fake = await startFakeOpenAiServer();
    try {
      fake.respondWith(() => completion(JSON.stringify({ question: { choice: 'support' } })));
      const app = buildTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' });
      const bundle = bundleOf('answer_message', CHOICE, routing);
      const validated = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [bundle] })
        .expect(200);
      expect(validated.body.is_valid).to.equal(true);
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], inputs: { message: 'It crashes', product: 'Cloud' } })
        .expect(200);
      expect(response.body.pipe_output.working_memory.root.answer.content).to.deep.equal({
        text: 'Support answers (support)',
      });
    } finally {
      await fake.close();
    }
  });
});

describe('PipeJudge under mock inference', () => {
  for (const [label, environment] of [
    ['without a provider key', {}],
    ['with INFERENCE_PROFILE=mock', { INFERENCE_PROFILE: 'mock' }],
  ] as const) {
    it(`should complete each kind and the multi form ${label}, with verdicts of the declared kinds`, async () => {
      const app = buildTestApp(environment);
      const run = async (main: string, inputs: Record<string, string>) => {
        const response = await request(app)
          .post('/v1/execute')
          .send({ mthds_contents: [bundleOf(main, YES_NO, CHOICE, RATING, MULTI)], inputs })
          .expect(200);
        return response.body.pipe_output.working_memory.root.main_stuff;
      };
      const urgent = await run('judge_is_urgent', { message: 'The server is down' });
      expect(urgent.concept.code).to.equal('Urgency');
      expect(urgent.content.yes_no).to.be.a('boolean');
      const routed = await run('route_message', { message: 'Where is my invoice?', product: 'Cloud' });
      expect(['billing', 'support']).to.include(routed.content.choice);
      const rated = await run('rate_severity', { message: 'Nobody can log in' });
      expect(rated.content).to.deep.equal({
        level: rated.content.level,
        label: ['Minor', 'Major', 'Critical'][rated.content.level],
      });
      const triage = await run('triage', { message: 'Nobody can log in' });
      expect(Object.keys(triage.content)).to.deep.equal(['urgent', 'team', 'severity']);
    });
  }
});

describe('PipeJudge through an OpenAI-compatible provider', () => {
  let fake: FakeOpenAiServer;
  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
  });
  afterEach(async () => {
    await fake.close();
  });
  const app = () => buildTestApp({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' });
  const execute = (main: string, inputs: Record<string, string>) =>
    request(app())
      .post('/v1/execute')
      .send({ mthds_contents: [bundleOf(main, YES_NO, CHOICE, RATING, MULTI)], inputs });

  it('should send one structured-output request with the evidence and the question, and store the yes/no verdict', async () => {
    fake.respondWith(() => completion(JSON.stringify({ question: { yes_no: true } })));
    const response = await execute('judge_is_urgent', { message: 'The server is down' }).expect(200);
    expect(fake.requests).to.have.length(1);
    const body = fake.requests[0]!.body;
    expect(body.model).to.equal('gpt-4o-mini');
    expect(body.messages![0]!.role).to.equal('system');
    expect(body.messages![1]).to.deep.equal({
      role: 'user',
      content: [
        '<evidence>\nA message from the inbox:\n<message>\nThe server is down\n</message>\n</evidence>',
        `Answer each of these questions about the evidence (keyed by name, as JSON):\n${JSON.stringify(
          {
            question: {
              kind: 'yes_no',
              instructions: 'Does this message need an answer today?',
              criteria: { yes: 'Something is blocked right now', no: 'It can wait' },
            },
          },
          null,
          2,
        )}`,
        'Answer with one JSON object keyed by the same names: {"yes_no": true or false} for a yes_no question, {"choice": "<option key>"} for a choice question, {"level": <level index>} for a rating question, or {"refusal": "<why>"} when the evidence does not allow an answer.',
      ].join('\n\n'),
    });
    expect(body.response_format!.json_schema!.name).to.equal('Judgment');
    expect(body.response_format!.json_schema!.schema).to.deep.equal({
      type: 'object',
      properties: {
        question: {
          anyOf: [
            {
              type: 'object',
              properties: { yes_no: { type: 'boolean' } },
              required: ['yes_no'],
              additionalProperties: false,
            },
            {
              type: 'object',
              properties: { refusal: { type: 'string', description: 'Why the evidence does not allow an answer' } },
              required: ['refusal'],
              additionalProperties: false,
            },
          ],
        },
      },
      required: ['question'],
      additionalProperties: false,
    });
    expect(response.body.pipe_output.working_memory.root.main_stuff).to.deep.include({
      stuff_name: 'urgency',
      content: { yes_no: true },
    });
  });

  it('should record the execution data on its graph node: rendered question, model, raw answer, threshold not applied', async () => {
    fake.respondWith(() => completion(JSON.stringify({ question: { yes_no: true } })));
    const response = await execute('judge_is_urgent', { message: 'The server is down' }).expect(200);
    const node = response.body.pipe_output.graph_spec.nodes[0];
    expect(node.execution_data).to.deep.equal({
      rendered_prompt: 'A message from the inbox:\n<message>\nThe server is down\n</message>',
      rendered_question: 'Does this message need an answer today?',
      resolved_model: 'gpt-4o-mini',
      judgment_kind: 'yes_no',
      answer: { yes_no: true },
      threshold: 0.7,
      threshold_applied: false,
      warnings: [
        "PipeJudge 'judge_is_urgent', question 'question': threshold 0.7 was not applied: the judgment model gave no probability, so its yes/no stands.",
      ],
    });
    expect(referenceErrors('GraphSpec', response.body.pipe_output.graph_spec)).to.deep.equal([]);
  });

  it('should attach the images the prompt reads behind [Image N] tokens', async () => {
    fake.respondWith(() => completion(JSON.stringify({ question: { yes_no: false } })));
    const bundle = [
      'domain = "receipts"',
      'main_pipe = "is_legible"',
      '[pipe.is_legible]',
      'type = "PipeJudge"',
      'description = "Is the receipt legible?"',
      'inputs = { receipt = "Image" }',
      'output = "YesNo"',
      'model = "@default-judgment"',
      'prompt = "The photo of a receipt: $receipt"',
      'question = "Can every amount be read?"',
    ].join('\n');
    const url = `data:image/png;base64,${Buffer.from('receipt').toString('base64')}`;
    const response = await request(app())
      .post('/v1/execute')
      .send({
        mthds_contents: [bundle],
        inputs: { receipt: { concept: 'Image', content: { url, mime_type: 'image/png' } } },
      })
      .expect(200);
    const content = fake.requests[0]!.body.messages![1]!.content as unknown as {
      type: string;
      text?: string;
      image_url?: { url: string };
    }[];
    expect(content[0]!.text).to.match(/^<evidence>\nThe photo of a receipt: \[Image 1\]\n<\/evidence>/);
    expect(content.slice(1)).to.deep.equal([{ type: 'image_url', image_url: { url, detail: 'high' } }]);
    expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({ yes_no: false });
  });

  it('should offer the options and the scale, and store the choice and the rating with its label', async () => {
    fake.respondWith(() => completion(JSON.stringify({ question: { choice: 'support' } })));
    const routed = await execute('route_message', { message: 'It crashes', product: 'Cloud' }).expect(200);
    const routing = fake.requests[0]!.body;
    expect(routing.messages![1]!.content).to.include('"instructions": "Which team answers questions about Cloud?"');
    expect(routing.messages![1]!.content).to.include('"key": "support"\n');
    expect(
      (routing.response_format!.json_schema!.schema as { properties: Record<string, { anyOf: unknown[] }> }).properties[
        'question'
      ]!.anyOf[0],
    ).to.deep.equal({
      type: 'object',
      properties: { choice: { type: 'string', enum: ['billing', 'support'] } },
      required: ['choice'],
      additionalProperties: false,
    });
    expect(routed.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({ choice: 'support' });
    fake.respondWith(() => completion(JSON.stringify({ question: { level: 2 } })));
    const rated = await execute('rate_severity', { message: 'Nobody can work' }).expect(200);
    expect(rated.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({
      level: 2,
      label: 'Critical',
    });
  });

  it('should ask the named questions in one request and leave a refused optional field absent', async () => {
    fake.respondWith(() =>
      completion(
        JSON.stringify({
          urgent: { yes_no: false },
          team: { choice: 'billing' },
          severity: { refusal: 'The message does not say' },
        }),
      ),
    );
    const response = await execute('triage', { message: 'Please resend my invoice' }).expect(200);
    expect(fake.requests).to.have.length(1);
    const schema = fake.requests[0]!.body.response_format!.json_schema!.schema as { required: string[] };
    expect(schema.required).to.deep.equal(['urgent', 'team', 'severity']);
    expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({
      urgent: { yes_no: false },
      team: { choice: 'billing' },
    });
    expect(response.body.pipe_output.graph_spec.nodes[0].execution_data).to.deep.equal({
      rendered_prompt: '<message>\nPlease resend my invoice\n</message>',
      rendered_questions: {
        urgent: 'Does it need an answer today?',
        team: 'Which team should answer?',
        severity: 'How severe is it?',
      },
      resolved_model: 'gpt-4o-mini',
      judgment_kinds: { urgent: 'yes_no', team: 'choice', severity: 'rating' },
      answers: {
        urgent: { yes_no: false },
        team: { choice: 'billing' },
        severity: { refusal: 'The message does not say' },
      },
    });
  });

  it('should fail with JudgmentRefusedError on a refused single question, and JudgmentAnswerMismatchError on an option not offered', async () => {
    fake.respondWith(() => completion(JSON.stringify({ question: { refusal: 'No message was given' } })));
    const refused = await execute('judge_is_urgent', { message: '' }).expect(422);
    expect(refused.body.error_type).to.equal('JudgmentRefusedError');
    expect(refused.body.detail).to.include("the judgment model refused question 'question': No message was given");
    fake.respondWith(() => completion(JSON.stringify({ question: { choice: 'legal' } })));
    const mismatch = await execute('route_message', { message: 'Sue them', product: 'Cloud' }).expect(500);
    expect(mismatch.body.error_type).to.equal('JudgmentAnswerMismatchError');
  });
});
