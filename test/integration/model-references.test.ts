import { expect } from 'chai';
import request from 'supertest';
import { startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

/** A bundle naming the reference-deck presets published methods use (issue: they validated, then failed to run). */
const presets = (vision: string) => `domain = "deck_presets"
main_pipe = "illustrate"

[pipe.illustrate]
type = "PipeSequence"
description = "Describe, then write an image prompt"
inputs = { topic = "Text" }
output = "Text"
steps = [
  { pipe = "describe", result = "description" },
  { pipe = "prompt_cheap", result = "cheap" },
  { pipe = "prompt_rich", result = "rich" },
  { pipe = "check", result = "checked" },
]

[pipe.describe]
type = "PipeLLM"
description = "Describe"
inputs = { topic = "Text" }
output = "Text"
prompt = "Describe $topic"
model = "${vision}"

[pipe.prompt_cheap]
type = "PipeLLM"
description = "Cheap prompt"
inputs = { description = "Text" }
output = "Text"
prompt = "Image prompt for $description"
model = "$img-gen-prompting-cheap"

[pipe.prompt_rich]
type = "PipeLLM"
description = "Rich prompt"
inputs = { cheap = "Text" }
output = "Text"
prompt = "Improve $cheap"
model = "preset:img-gen-prompting"

[pipe.check]
type = "PipeLLM"
description = "Check"
inputs = { rich = "Text" }
output = "Text"
prompt = "Check $rich"
model = "$testing-text"
`;

const UNKNOWN_ITEM = {
  category: 'pipe_validation',
  message:
    "Pipe 'describe', field 'model': LLM preset 'vision-premium' was not found in the model deck. Did you mean '$vision'? Name one of the deck's presets, aliases or waterfalls, or a model handle.",
  error_type: 'unknown_model',
  source: 'deck_presets.mthds',
  pipe_code: 'describe',
  domain_code: 'deck_presets',
  field_path: 'pipe.describe.model',
  field_name: 'model',
  model_reference: '$vision-premium',
  model_type: 'llm',
  suggestions: ['$vision'],
};

describe('model references: /v1/validate and the run routes agree', () => {
  const app = buildTestApp({ INFERENCE_PROFILE: 'mock' });

  it('should validate and run a bundle naming $vision, $testing-text and $img-gen-prompting(-cheap)', async () => {
    const validated = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [presets('$vision')] })
      .expect(200);
    expect(validated.body.is_valid, JSON.stringify(validated.body.validation_errors)).to.equal(true);
    const run = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [presets('$vision')], inputs: { topic: 'tides' } });
    expect(run.status, JSON.stringify(run.body).slice(0, 400)).to.equal(200);
    expect(
      run.body.pipe_output.tokens_usages.map((usage: { inference_model_name: string }) => usage.inference_model_name),
    ).to.deep.equal(['gpt-4.1', 'gemini-flash-latest', 'gpt-4.1', 'gpt-4o-mini']);
  });

  it('should validate and run a bundle naming the data-synthesis preset $synthesizing-data', async () => {
    const bundle = presets('$synthesizing-data');
    const validated = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [bundle] })
      .expect(200);
    expect(validated.body.is_valid, JSON.stringify(validated.body.validation_errors)).to.equal(true);
    const run = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [bundle], inputs: { topic: 'tides' } });
    expect(run.status, JSON.stringify(run.body).slice(0, 400)).to.equal(200);
    expect(run.body.pipe_output.tokens_usages[0]).to.deep.include({ inference_model_name: 'gpt-4.1' });
  });

  it('should refuse an unknown preset in /v1/validate, /v1/resolve and /v1/execute alike', async () => {
    const body = { mthds_contents: [presets('$vision-premium')], mthds_sources: ['deck_presets.mthds'] };
    const validated = await request(app).post('/v1/validate').send(body).expect(200);
    expect(validated.body).to.include({ is_valid: false });
    expect(validated.body.validation_errors).to.deep.equal([UNKNOWN_ITEM]);
    const resolved = await request(app)
      .post('/v1/resolve')
      .send({ files: [{ content: presets('$vision-premium'), source: 'deck_presets.mthds' }] })
      .expect(200);
    expect(resolved.body).to.include({ is_valid: false });
    expect(resolved.body.validation_errors).to.deep.equal([UNKNOWN_ITEM]);
    const refused = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: body.mthds_contents, inputs: { topic: 'tides' } })
      .expect(422);
    expect(refused.body.error_type).to.equal('ValidateBundleError');
    expect(refused.body.validation_errors).to.deep.equal([{ ...UNKNOWN_ITEM, source: null }]);
  });

  it('should refuse it in /v1/start before queueing', async () => {
    const deployment = startQueueDeployment({ environment: { INFERENCE_PROFILE: 'mock' }, workers: false });
    try {
      const refused = await request(deployment.app)
        .post('/v1/start')
        .send({ mthds_contents: [presets('$vision-premium')], inputs: { topic: 'tides' } })
        .expect(422);
      expect(refused.body.error_type).to.equal('ValidateBundleError');
      expect(refused.body.validation_errors).to.deep.equal([{ ...UNKNOWN_ITEM, source: null }]);
    } finally {
      await deployment.close();
    }
  });
});
