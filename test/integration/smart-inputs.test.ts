/**
 * Smart inputs over HTTP (docs/data-flow.md#caller-inputs): `/v1/execute` takes a bare number for a `Number` input and
 * a bare
 * boolean for a `YesNo` input, as the light form of `/v1/build/inputs` suggests, and refuses a scalar the declared
 * concept does not take with its 422 before the run starts.
 */
import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = [
  'domain = "shop"',
  'main_pipe = "quote"',
  '[pipe.quote]',
  'type = "PipeCompose"',
  'description = "Quotes a quantity"',
  'inputs = { quantity = "Number", gift = "YesNo" }',
  'output = "Text"',
  'template = "{{ quantity.number }} item(s){% if gift.yes_no %}, wrapped{% endif %}"',
].join('\n');

describe('smart inputs over HTTP', () => {
  const app = buildTestApp();

  it('should run on a bare number and a bare boolean', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [BUNDLE], inputs: { quantity: 3, gift: true } })
      .expect(200);
    const root = response.body.pipe_output.working_memory.root;
    expect(root.quantity.content).to.deep.equal({ number: 3 });
    expect(root.gift.content).to.deep.equal({ yes_no: true });
    expect(root.main_stuff.content).to.deep.equal({ text: '3 item(s), wrapped' });
  });

  it('should refuse a boolean for a Number input with a 422 StuffFactoryError', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [BUNDLE], inputs: { quantity: true, gift: true } })
      .expect(422);
    expect(response.body.error_type).to.equal('StuffFactoryError');
  });
});
