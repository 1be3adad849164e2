import { expect } from 'chai';
import request from 'supertest';
import { CONTROLLERS_BUNDLE } from '../helpers/controllers-bundle.js';
import { corpusJson, sample } from '../helpers/corpus.js';
import {
  completion,
  type FakeOpenAiServer,
  providerError,
  startFakeOpenAiServer,
} from '../helpers/fake-openai-server.js';
import { arrivalGate } from '../helpers/fake-provider-server.js';
import { buildTestApp } from '../helpers/test-app.js';

const PROBLEM_JSON = 'application/problem+json';

const COMPOSE_BUNDLE = `
domain = "greetings"
main_pipe = "greet"

[concept.Person]
description = "A person"

[concept.Person.structure]
name = { type = "text", description = "Full name", required = true }
age = { type = "integer", description = "Age in years" }

[pipe.greet]
type = "PipeCompose"
description = "Greet a name and friends"
inputs = { name = "Text", friends = "Text[]" }
output = "Text"
template = "Hello {{ name }}! Friends: {% for friend in friends %}{{ friend }}{% if not loop.last %}, {% endif %}{% endfor %}."

[pipe.describe]
type = "PipeCompose"
description = "Describe a person"
inputs = { person = "Person" }
output = "Text"
template = "{{ person.name }} is {{ person.age }}."

[pipe.two_steps]
type = "PipeSequence"
description = "Describe, then shout"
inputs = { person = "Person" }
output = "Text"
steps = [
  { pipe = "describe", result = "description" },
  { pipe = "shout", result = "shouted" },
]

[pipe.shout]
type = "PipeCompose"
description = "Shout a text"
inputs = { description = "Text" }
output = "Text"
template = "{{ description|upper }}"
`;

const OTHER_PERSON_BUNDLE = `
domain = "crm"
[concept.Person]
description = "A customer"
`;

describe('POST /v1/execute', () => {
  describe('with mock inference', () => {
    const app = buildTestApp();

    it('should run hello_greeting to a COMPLETED result with a greeting', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [sample('hello_greeting')],
          inputs: corpusJson('pipelex-api-samples/hello_greeting.inputs.json'),
        })
        .expect(200);
      expect(response.headers['content-type']).to.equal('application/json');
      const body = response.body;
      expect(Object.keys(body)).to.deep.equal([
        'pipeline_run_id',
        'state',
        'pipeline_state',
        'created_at',
        'finished_at',
        'main_stuff_name',
        'pipe_output',
        'tokens_usages_backends',
        'usage',
        'pipe_structures',
      ]);
      expect(body).to.include({ state: 'COMPLETED', pipeline_state: 'COMPLETED', main_stuff_name: 'main_stuff' });
      expect(body.pipe_output.pipeline_run_id).to.equal(body.pipeline_run_id);
      expect(body.pipe_output.tokens_usages).to.have.length(1);
      const { started_at, completed_at, ...usage } = body.pipe_output.tokens_usages[0];
      expect(usage).to.deep.equal({
        model_type: 'llm',
        inference_model_name: 'gpt-4o-mini',
        inference_model_id: 'gpt-4o-mini',
        pipe_code: 'write_greeting',
        job_category: 'llm_job',
        unit_job_id: null,
        nb_tokens_by_category: { input: 16, output: 24 },
        cost: null,
      });
      expect(Date.parse(completed_at)).to.be.at.least(Date.parse(started_at));
      expect(body.tokens_usages_backends).to.deep.equal(['mock']);
      expect(Date.parse(body.finished_at)).to.be.at.least(Date.parse(body.created_at));
      const { root, aliases } = body.pipe_output.working_memory;
      expect(aliases).to.deep.equal({});
      expect(root.name.content).to.deep.equal({ text: 'Ada Lovelace' });
      expect(root.name.concept).to.deep.equal({
        code: 'Text',
        domain_code: 'native',
        description: 'A text',
        structure_class_name: 'TextContent',
        refines: null,
      });
      expect(root.main_stuff.stuff_name).to.equal('text');
      expect(root.main_stuff.content.text).to.equal(
        '[mock inference] Response to: "Write a short, friendly one-sentence greeting for Ada Lovelace."',
      );
      expect(body.pipe_structures).to.deep.equal({
        write_greeting: {
          inputs: { name: { concept_code: 'native.Text', multiplicity: 'single' } },
          output: { concept_code: 'native.Text', multiplicity: 'single' },
        },
      });
      const graph = body.pipe_output.graph_spec;
      expect(graph).to.include({ graph_id: body.pipeline_run_id, created_at: body.created_at });
      expect(graph.nodes).to.have.length(1);
      const [node] = graph.nodes;
      expect(node).to.include({ id: 'node_0', kind: 'operator', pipe_code: 'write_greeting', status: 'succeeded' });
      expect(
        node.io.inputs.map((item: { name: string; concept: string }) => `${item.name}:${item.concept}`),
      ).to.deep.equal(['name:Text']);
      expect(node.io.inputs[0]).to.include({ digest: root.name.stuff_code, preview: 'Ada Lovelace', size: null });
      expect(node.io.outputs[0]).to.include({ name: 'text', concept: 'Text', digest: root.main_stuff.stuff_code });
      expect(node.io.outputs[0].data).to.deep.equal(root.main_stuff.content);
      expect(Date.parse(node.timing.ended_at)).to.be.at.least(Date.parse(node.timing.started_at));
      expect(Object.keys(graph.pipe_registry)).to.deep.equal(['hello_greeting.write_greeting']);
      expect(Object.keys(graph.concept_registry)).to.deep.equal(['native.Text']);
    });

    it('should run cv_job_match to a MatchAnalysis-shaped content', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [sample('cv_job_match')],
          inputs: corpusJson('pipelex-api-samples/cv_job_match.inputs.json'),
        })
        .expect(200);
      const stuff = response.body.pipe_output.working_memory.root.main_stuff;
      expect(stuff.concept).to.include({
        code: 'MatchAnalysis',
        domain_code: 'cv_job_match',
        structure_class_name: 'MatchAnalysis',
      });
      expect(Object.keys(stuff.content).sort()).to.deep.equal([
        'gaps',
        'is_match',
        'key_strengths',
        'match_score',
        'recommendation',
      ]);
      expect(stuff.content.is_match).to.be.a('boolean');
      expect(Number.isInteger(stuff.content.match_score)).to.equal(true);
      expect(stuff.content.gaps).to.be.a('string');
    });

    it('should honour output_multiplicity with a list of that many items', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' }, output_multiplicity: 3 })
        .expect(200);
      const content = response.body.pipe_output.working_memory.root.main_stuff.content;
      expect(content.items).to.have.length(3);
      for (const item of content.items) expect(item.text).to.be.a('string');
    });

    it('should refuse running a PipeSignature with 422', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [sample('draft_with_signature')],
          inputs: corpusJson('pipelex-api-samples/draft_with_signature.inputs.json'),
        })
        .expect(422);
      expect(response.body.error_type).to.equal('PipeSignatureNotExecutableError');
    });

    it('should answer 501 for a PipeFunc, whose functions this runner does not register', async () => {
      const bundle =
        'domain = "funcs"\nmain_pipe = "call"\n[pipe.call]\ntype = "PipeFunc"\ndescription = "d"\noutput = "Text"\nfunction_name = "my_module.my_function"\n';
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle] })
        .expect(501);
      expect(response.body).to.include({ error_type: 'PipeFeatureNotSupportedError', status: 501 });
      expect(response.body.detail).to.include('PipeFunc');
    });
  });

  describe('inputs', () => {
    const app = buildTestApp();
    const run = (body: Record<string, unknown>) =>
      request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [COMPOSE_BUNDLE], ...body });

    it('should accept a direct string and a list of strings', async () => {
      const response = await run({ inputs: { name: 'Ada', friends: ['Grace', 'Alan'] } }).expect(200);
      expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({
        text: 'Hello Ada! Friends: Grace, Alan.',
      });
      expect(response.body.pipe_output.working_memory.root.friends.content).to.deep.equal({
        items: [{ text: 'Grace' }, { text: 'Alan' }],
      });
    });

    it('should accept the explicit {concept, content} form', async () => {
      const response = await run({
        inputs: {
          name: { concept: 'native.Text', content: 'Ada' },
          friends: { concept: 'Text[]', content: ['Grace'] },
        },
      }).expect(200);
      expect(response.body.pipe_output.working_memory.root.main_stuff.content.text).to.equal(
        'Hello Ada! Friends: Grace.',
      );
    });

    it('should validate a structured content against its concept and run a sequence', async () => {
      const response = await run({
        pipe_code: 'two_steps',
        inputs: { person: { concept: 'Person', content: { name: 'Ada', age: 36 } } },
      }).expect(200);
      const { root, aliases } = response.body.pipe_output.working_memory;
      expect(response.body.main_stuff_name).to.equal('shouted');
      expect(aliases).to.deep.equal({ main_stuff: 'shouted' });
      expect(root.description.content).to.deep.equal({ text: 'Ada is 36.' });
      expect(root.shouted.content).to.deep.equal({ text: 'ADA IS 36.' });
      expect(root.person.concept).to.include({
        code: 'Person',
        domain_code: 'greetings',
        structure_class_name: 'Person',
      });
    });

    it('should type an untyped object by the pipe declaration', async () => {
      const response = await run({ pipe_code: 'describe', inputs: { person: { name: 'Grace', age: null } } }).expect(
        200,
      );
      expect(response.body.pipe_output.working_memory.root.main_stuff.content.text).to.equal('Grace is None.');
    });

    it('should refuse a content that does not match its concept with 422 StuffFactoryError', async () => {
      const response = await run({
        pipe_code: 'describe',
        inputs: { person: { concept: 'Person', content: { age: 'old' } } },
      }).expect(422);
      expect(response.headers['content-type']).to.equal(PROBLEM_JSON);
      expect(response.body.error_type).to.equal('StuffFactoryError');
      expect(response.body.detail).to.include("Input 'person'").and.include('greetings.Person');
    });

    it('should refuse an unknown concept with 422 ConceptNotFoundError', async () => {
      const response = await run({ inputs: { name: { concept: 'Nobody', content: 'x' }, friends: ['a'] } }).expect(422);
      expect(response.body.error_type).to.equal('ConceptNotFoundError');
    });

    it('should refuse a bare concept declared in two domains with 422 ConceptAmbiguityError', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [COMPOSE_BUNDLE, OTHER_PERSON_BUNDLE],
          pipe_code: 'greetings.describe',
          inputs: { person: { concept: 'Person', content: { name: 'Ada' } } },
        })
        .expect(422);
      expect(response.body.error_type).to.equal('ConceptAmbiguityError');
      expect(response.body.detail).to.include('crm.Person').and.include('greetings.Person');
    });

    it('should refuse a missing input with 422 PipeInputError', async () => {
      const response = await run({ inputs: { name: 'Ada' } }).expect(422);
      expect(response.body.error_type).to.equal('PipeInputError');
      expect(response.body.detail).to.include('friends');
    });

    it('should refuse an unknown pipe_code with 422', async () => {
      const response = await run({ pipe_code: 'nope', inputs: {} }).expect(422);
      expect(response.body.error_type).to.equal('PipeNotFoundError');
    });
  });

  describe('request problems', () => {
    const app = buildTestApp();

    it('should refuse an invalid bundle with 422 ValidateBundleError carrying validation_errors', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [sample('invalid/prompt_input_mismatch')], inputs: { name: 'x' } })
        .expect(422);
      expect(response.body).to.include({
        error_type: 'ValidateBundleError',
        status: 422,
        error_domain: 'input',
        title: 'Validate bundle',
      });
      expect(response.body.validation_errors[0]).to.include({
        category: 'blueprint_validation',
        error_type: 'missing_input_variable',
        pipe_code: 'greet_person',
      });
      expect(response.body.user_action).to.deep.equal({
        kind: 'change_input',
        detail: 'Check the validation_errors array for specific issues',
      });
    });

    it('should refuse an empty body object', async () => {
      const response = await request(app).post('/v1/execute').send({}).expect(422);
      expect(response.body.error_type).to.equal('ValidationError');
      expect(response.body.detail).to.match(/^pipe_code and mthds_contents cannot both be empty/);
    });

    it('should refuse a body that is not an object with InvalidJSON', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .set('Content-Type', 'application/json')
        .send('[1, 2]')
        .expect(422);
      expect(response.body).to.include({ error_type: 'InvalidJSON', detail: 'Request body must be a JSON object' });
    });

    it('should refuse malformed JSON with InvalidJSON', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .set('Content-Type', 'application/json')
        .send('{"mthds_contents": ')
        .expect(422);
      expect(response.body.error_type).to.equal('InvalidJSON');
      expect(response.body.detail).to.match(/^Request body is not valid JSON: /);
    });

    it('should refuse a bundle together with inline contents', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: ['x'], files: { 'a.mthds': 'x' } })
        .expect(422);
      expect(response.body.detail).to.include('mutually exclusive');
    });

    it('should refuse a bad storage_scope and a too long pipeline_run_id', async () => {
      const scope = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [sample('hello_greeting')], storage_scope: '../x' })
        .expect(422);
      expect(scope.body.detail).to.include('body.storage_scope');
      const runId = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [sample('hello_greeting')], pipeline_run_id: 'x'.repeat(129) })
        .expect(422);
      expect(runId.body.detail).to.include('body.pipeline_run_id');
    });

    it('should refuse more than 5 callback_urls with InvalidCallbackUrls, from the request schema', async () => {
      const urls = Array.from({ length: 6 }, (_, index) => `https://example.com/hook/${index}`);
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [sample('hello_greeting')], callback_urls: urls })
        .expect(422);
      expect(response.body).to.include({
        error_type: 'InvalidCallbackUrls',
        detail: 'callback_urls: at most 5 URLs are accepted, got 6.',
      });
    });

    it('should apply the source rules before the orchestration mode (the request schema holds them)', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ method_ref: 'acme/methods', files: { 'a.mthds': 'x' }, orchestration_mode: 'bullmq' })
        .expect(422);
      expect(response.body).to.include({
        error_type: 'ValidationError',
        detail: 'method_ref and a method bundle (bundle_b64 / files) are mutually exclusive; send one or the other.',
      });
    });

    it('should refuse an orchestration_mode override with 403', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [sample('hello_greeting')], orchestration_mode: 'bullmq' })
        .expect(403);
      expect(response.body.error_type).to.equal('OrchestrationModeOverrideForbidden');
    });

    it('should answer 501 for a registry-form method_ref', async () => {
      const response = await request(app).post('/v1/execute').send({ method_ref: 'pipelex/methods' }).expect(501);
      expect(response.body.error_type).to.equal('MethodRefNotSupported');
    });
  });

  describe('with an OpenAI-compatible provider', () => {
    let fake: FakeOpenAiServer;
    const environment = () => ({
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: fake.baseUrl,
      INFERENCE_MAX_RETRIES: '0',
    });

    beforeEach(async () => {
      fake = await startFakeOpenAiServer();
    });

    afterEach(async () => {
      await fake.close();
    });

    it('should run a batch wider than 10 calls at once without a MaxListenersExceededWarning on the run signal', async () => {
      // the provider answers none of the 24 calls before all 24 are in: they are in flight at once
      const batch = arrivalGate(24);
      fake.respondWith(() => ({ ...completion('echo'), after: batch() }));
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
      process.on('warning', onWarning);
      try {
        const words = Array.from({ length: 24 }, (_, index) => `word-${index}`);
        const response = await request(buildTestApp({ ...environment(), BATCH_MAX_PARALLEL: '24' }))
          .post('/v1/execute')
          .send({ mthds_contents: [CONTROLLERS_BUNDLE], pipe_code: 'batch_echo', inputs: { words } })
          .expect(200);
        expect(response.body.pipe_output.working_memory.root.main_stuff.content.items).to.have.length(24);
        expect(fake.requests).to.have.length(24);
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings).to.deep.equal([]);
      } finally {
        process.off('warning', onWarning);
      }
    });

    it('should send the rendered prompt with the input and return the provider text', async () => {
      const response = await request(buildTestApp(environment()))
        .post('/v1/execute')
        .send({ mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada Lovelace' } })
        .expect(200);
      expect(fake.requests).to.have.length(1);
      const [call] = fake.requests;
      expect(call!.path).to.equal('/v1/chat/completions');
      expect(call!.headers.authorization).to.equal('Bearer test-key');
      expect(call!.body.model).to.equal('gpt-4o-mini');
      expect(call!.body.temperature).to.equal(0.5);
      expect(call!.body.messages).to.deep.equal([
        { role: 'user', content: 'Write a short, friendly one-sentence greeting for Ada Lovelace.' },
      ]);
      expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({
        text: 'Hello from the fake provider.',
      });
      expect(response.body.pipe_output.tokens_usages[0]).to.deep.include({
        inference_model_name: 'gpt-4o-mini',
        inference_model_id: 'gpt-4o-mini',
        nb_tokens_by_category: { input: 11, output: 7 },
        cost: (11 * 0.15 + 7 * 0.6) / 1_000_000,
      });
      expect(response.body.tokens_usages_backends).to.deep.equal(['openai']);
    });

    it('should resolve a $preset through the model deck (cv_job_match uses $writing-factual)', async () => {
      await request(buildTestApp(environment()))
        .post('/v1/execute')
        .send({
          mthds_contents: [sample('cv_job_match')],
          inputs: corpusJson('pipelex-api-samples/cv_job_match.inputs.json'),
        })
        .expect(200);
      expect(fake.requests[0]!.body).to.deep.include({ model: 'gpt-4.1', temperature: 0.1 });
    });

    it('should refuse an unknown preset at load, with the item /v1/validate reports', async () => {
      const bundle = sample('hello_greeting').replace(
        'output      = "Text"',
        'output      = "Text"\nmodel       = "$writing-factul"',
      );
      const app = buildTestApp(environment());
      const item = {
        category: 'pipe_validation',
        message:
          "Pipe 'write_greeting', field 'model': LLM preset 'writing-factul' was not found in the model deck. Did you mean '$writing-factual', '$writing-factual-cheap'? Name one of the deck's presets, aliases or waterfalls, or a model handle.",
        error_type: 'unknown_model',
        source: null,
        pipe_code: 'write_greeting',
        domain_code: 'hello_greeting',
        field_path: 'pipe.write_greeting.model',
        field_name: 'model',
        model_reference: '$writing-factul',
        model_type: 'llm',
        suggestions: ['$writing-factual', '$writing-factual-cheap'],
      };
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], inputs: { name: 'Ada' } })
        .expect(422);
      expect(response.body.error_type).to.equal('ValidateBundleError');
      expect(response.body.validation_errors).to.deep.equal([item]);
      const validated = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [bundle] })
        .expect(200);
      expect(validated.body).to.include({ is_valid: false });
      expect(validated.body.validation_errors).to.deep.equal([item]);
      expect(fake.requests).to.have.length(0);
    });

    it('should send the JSON schema of a structured concept and the system prompt', async () => {
      const response = await request(buildTestApp(environment()))
        .post('/v1/execute')
        .send({
          mthds_contents: [sample('cv_job_match')],
          inputs: corpusJson('pipelex-api-samples/cv_job_match.inputs.json'),
        })
        .expect(200);
      const body = fake.requests[0]!.body;
      expect(body.messages![0]!.role).to.equal('system');
      expect(body.messages![0]!.content).to.include('senior HR expert');
      expect(body.messages![1]!.content).to.include('<cv_text>\nJane Doe');
      expect(body.response_format!.type).to.equal('json_schema');
      expect(body.response_format!.json_schema!.name).to.equal('MatchAnalysis');
      const schema = body.response_format!.json_schema!.schema as {
        properties: Record<string, { type: string }>;
        required: string[];
      };
      expect(schema.required).to.deep.equal(['is_match', 'match_score', 'key_strengths', 'gaps', 'recommendation']);
      expect(schema.properties['is_match']!.type).to.equal('boolean');
      expect(schema.properties['match_score']!.type).to.equal('integer');
      expect(Object.keys(response.body.pipe_output.working_memory.root.main_stuff.content).sort()).to.deep.equal([
        'gaps',
        'is_match',
        'key_strengths',
        'match_score',
        'recommendation',
      ]);
    });

    it('should re-ask once when the first structured answer is invalid', async () => {
      const valid = {
        is_match: true,
        match_score: 80,
        key_strengths: 'Python',
        gaps: 'none',
        recommendation: 'interview',
      };
      fake.respondWith(() =>
        fake.requests.length === 1
          ? completion(JSON.stringify({ is_match: 'yes' }))
          : completion(JSON.stringify(valid)),
      );
      const response = await request(buildTestApp(environment()))
        .post('/v1/execute')
        .send({
          mthds_contents: [sample('cv_job_match')],
          inputs: corpusJson('pipelex-api-samples/cv_job_match.inputs.json'),
        })
        .expect(200);
      expect(fake.requests).to.have.length(2);
      const lastMessage = fake.requests[1]!.body.messages!.at(-1)!;
      expect(lastMessage.role).to.equal('user');
      expect(lastMessage.content).to.include('/is_match must be boolean');
      expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal(valid);
    });

    it('should draft text first, then structure it, with structuring_method = "preliminary_text"', async () => {
      const bundle = sample('cv_job_match').replace(
        'model = "$writing-factual"',
        'model = "$writing-factual"\nmodel_to_structure = "@default-small"\nstructuring_method = "preliminary_text"',
      );
      const valid = { is_match: false, match_score: 20, key_strengths: 'k', gaps: 'g', recommendation: 'reject' };
      fake.respondWith((recorded) =>
        recorded.body.response_format ? completion(JSON.stringify(valid)) : completion('Draft: not a match.'),
      );
      const response = await request(buildTestApp(environment()))
        .post('/v1/execute')
        .send({ mthds_contents: [bundle], inputs: corpusJson('pipelex-api-samples/cv_job_match.inputs.json') })
        .expect(200);
      expect(fake.requests).to.have.length(2);
      expect(fake.requests[0]!.body).to.deep.include({ model: 'gpt-4.1' });
      expect(fake.requests[0]!.body.response_format).to.equal(undefined);
      expect(fake.requests[1]!.body).to.deep.include({ model: 'gpt-4o-mini' });
      expect(fake.requests[1]!.body.messages![1]!.content).to.include(
        '<draft_text>\nDraft: not a match.\n</draft_text>',
      );
      expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal(valid);
    });

    it('should send referenced images as attachments behind [Image N] placeholders', async () => {
      const bundle = [
        'domain = "vision"',
        'main_pipe = "describe"',
        '[pipe.describe]',
        'type = "PipeLLM"',
        'description = "Describe photos"',
        'inputs = { photo = "Image", others = "Image[]" }',
        'output = "Text"',
        'prompt = "Describe $photo, then compare it with $others. Again: $photo."',
      ].join('\n');
      const image = (name: string) => ({
        url: `data:image/png;base64,${Buffer.from(name).toString('base64')}`,
        mime_type: 'image/png',
      });
      await request(buildTestApp(environment()))
        .post('/v1/execute')
        .send({
          mthds_contents: [bundle],
          inputs: {
            photo: { concept: 'Image', content: image('a') },
            others: { concept: 'Image', content: [image('b'), { url: 'https://example.com/c.png' }] },
          },
        })
        .expect(200);
      const content = fake.requests[0]!.body.messages![0]!.content as unknown as {
        type: string;
        text?: string;
        image_url?: { url: string; detail: string };
      }[];
      expect(content[0]).to.deep.equal({
        type: 'text',
        text: 'Describe [Image 1], then compare it with [Image 2], [Image 3]. Again: [Image 1].',
      });
      expect(content.slice(1)).to.deep.equal([
        { type: 'image_url', image_url: { url: image('a').url, detail: 'high' } },
        { type: 'image_url', image_url: { url: image('b').url, detail: 'high' } },
        { type: 'image_url', image_url: { url: 'https://example.com/c.png', detail: 'high' } },
      ]);
    });

    it('should pass a provider 429 through with Retry-After', async () => {
      fake.respondWith(() => providerError(429, 'Rate limit reached', { 'retry-after': '12' }));
      const response = await request(buildTestApp(environment()))
        .post('/v1/execute')
        .send({ mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } })
        .expect(429);
      expect(response.headers['retry-after']).to.equal('12');
      expect(response.body).to.include({
        status: 429,
        error_type: 'LLMCompletionError',
        error_domain: 'runtime',
        retryable: true,
        error_category: 'TRANSIENT',
      });
      expect(response.body.provider_metadata).to.include({
        provider: 'openai',
        status_code: 429,
        retry_after_seconds: 12,
      });
      expect(response.body.model).to.equal('gpt-4o-mini');
      expect(response.body.provider).to.equal('openai');
    });

    it('should redact provider failures under strict disclosure', async () => {
      fake.respondWith(() => providerError(500, 'upstream exploded with internal details'));
      const response = await request(buildTestApp({ ...environment(), ERROR_DISCLOSURE: 'strict' }))
        .post('/v1/execute')
        .send({ mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } })
        .expect(500);
      expect(response.body).to.include({
        status: 500,
        error_type: 'LLMCompletionError',
        detail: 'An internal error occurred.',
        retryable: true,
      });
      expect(response.body).to.not.have.property('model');
      expect(response.body).to.not.have.property('provider');
      expect(response.body.provider_metadata).to.deep.equal({ status_code: 500 });
      expect(JSON.stringify(response.body)).to.not.include('internal details');
    });

    it('should keep a validation problem readable under strict disclosure', async () => {
      const response = await request(buildTestApp({ ...environment(), ERROR_DISCLOSURE: 'strict' }))
        .post('/v1/execute')
        .send({ mthds_contents: [sample('invalid/unknown_concept')] })
        .expect(422);
      expect(response.body.error_type).to.equal('ValidateBundleError');
      expect(response.body.detail).to.include('NonExistentConcept');
      expect(fake.requests).to.have.length(0);
    });
  });
});
