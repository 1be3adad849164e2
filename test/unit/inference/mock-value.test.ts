import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { mockValueForSchema } from '../../../shared/inference/index.js';

const SCHEMA = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'ko', 'maybe'] },
    score: { type: 'integer', minimum: 0, maximum: 100 },
    ratio: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' }, minItems: 3, maxItems: 3 },
    owner: { $ref: '#/$defs/Person' },
    note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    when: { type: 'string', format: 'date-time' },
  },
  required: ['status', 'score', 'tags', 'owner'],
  additionalProperties: false,
  $defs: { Person: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
};

describe('mockValueForSchema', () => {
  it('should produce a value valid against the schema (enum, bounds, $ref, nullable, format)', () => {
    const validate = new Ajv2020({ strict: false }).compile(SCHEMA);
    const value = mockValueForSchema(SCHEMA, 'seed-1') as Record<string, unknown>;
    expect(validate(value), JSON.stringify(validate.errors)).to.equal(true);
    expect(value['tags']).to.have.length(3);
    expect(typeof value['note']).to.equal('string');
  });

  it('should be deterministic for a seed and vary with it', () => {
    expect(mockValueForSchema(SCHEMA, 'a')).to.deep.equal(mockValueForSchema(SCHEMA, 'a'));
    expect(JSON.stringify(mockValueForSchema(SCHEMA, 'a'))).to.not.equal(
      JSON.stringify(mockValueForSchema(SCHEMA, 'b')),
    );
  });
});
