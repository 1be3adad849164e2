/**
 * Request validation with the route's own schema (api/request-schema.ts): every issue in one ValidationError, unless
 * the only issues are refinements that name the route's own answer.
 */
import { expect } from 'chai';
import { z } from 'zod';
import { parseRequest, refuseAs } from '../../../api/request-schema.js';
import { InvalidCallbackUrls, ValidationError } from '../../../shared/errors/index.js';

const SCHEMA = z
  .object({
    name: z.string().nullish(),
    urls: z
      .array(z.string())
      .superRefine((urls, context) => {
        if (urls.length > 1) refuseAs(context, InvalidCallbackUrls, `at most 1 URL, got ${urls.length}.`);
      })
      .nullish(),
  })
  .superRefine((body, context) => {
    if (!body.name) refuseAs(context, ValidationError, 'send a name.');
  });

function refusal(value: unknown, location?: string): { type: string; detail: string } {
  try {
    parseRequest(SCHEMA, value, location);
  } catch (error) {
    return { type: (error as ValidationError).error_type, detail: (error as Error).message };
  }
  throw new Error('accepted');
}

describe('parseRequest (api/request-schema.ts)', () => {
  it('should answer a refinement’s own answer, its detail as written', () => {
    expect(refusal({})).to.deep.equal({ type: 'ValidationError', detail: 'send a name.' });
    expect(refusal({ name: 'a', urls: ['x', 'y'] })).to.deep.equal({
      type: 'InvalidCallbackUrls',
      detail: 'at most 1 URL, got 2.',
    });
  });

  it('should answer the first own answer when there are several (a member’s before the body’s)', () => {
    expect(refusal({ urls: ['x', 'y'] }).type).to.equal('InvalidCallbackUrls');
  });

  it('should answer the other issues first, each named by where it is', () => {
    expect(refusal({ name: 1, urls: ['x', 'y'] })).to.deep.equal({
      type: 'ValidationError',
      detail: 'body.name: Invalid input: expected string, received number',
    });
    expect(refusal({ name: 1 }, 'query').detail).to.equal(
      'query.name: Invalid input: expected string, received number',
    );
  });

  it('should return the parsed value when it passes', () => {
    expect(parseRequest(SCHEMA, { name: 'a', extra: 1 })).to.deep.equal({ name: 'a' });
  });
});
