import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { LLMCompletionTruncatedError } from '../../../shared/errors/index.js';
import { MOCK_MAX_OUTPUT_TOKENS, mockValueForSchema, mockValuesForSchema } from '../../../shared/inference/index.js';

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

  describe("when a schema asks for more than the mock's maximum output", () => {
    const truncated = (run: () => unknown) => {
      expect(run).to.throw(
        LLMCompletionTruncatedError,
        `Mock inference: the output would exceed ${MOCK_MAX_OUTPUT_TOKENS.toLocaleString('en-US')} tokens`,
      );
    };

    it('should refuse a minItems past the budget before building the array', () => {
      const heapBefore = process.memoryUsage().heapUsed;
      truncated(() => mockValueForSchema({ type: 'array', items: { type: 'string' }, minItems: 999_999_999 }, 's'));
      truncated(() => mockValueForSchema({ type: 'array', items: { type: 'string' }, minItems: 2 ** 32 }, 's'));
      expect(process.memoryUsage().heapUsed - heapBefore).to.be.below(16 * 1024 * 1024);
    });

    it('should refuse a minLength past the budget before padding the string', () => {
      truncated(() => mockValueForSchema({ type: 'string', minLength: 500_000_000 }, 's'));
    });

    it('should stop a structure expanding into millions of members once the budget is spent', () => {
      const wide = (next: Record<string, unknown>) => ({
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`f${index}`, next])),
      });
      truncated(() => mockValueForSchema(wide(wide(wide(wide({ type: 'string' })))), 's'));
    });

    it('should bound the values of one output together', () => {
      const record = {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 20 }, (_, index) => [`field_${index}`, { type: 'string' }]),
        ),
      };
      expect(mockValuesForSchema(record, ['a', 'b'])).to.have.length(2);
      truncated(() =>
        mockValuesForSchema(
          record,
          Array.from({ length: 1000 }, (_, index) => `s${index}`),
        ),
      );
    });
  });
});
