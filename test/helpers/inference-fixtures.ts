/**
 * Fixtures shared by the provider backend tests: a structured request for a `Score` object, and a way to catch the
 * error a call ends in.
 */
import type { MthdsError } from '../../shared/errors/index.js';
import type { ObjectRequest } from '../../shared/inference/index.js';

/** A structured request for `{value: integer}`, one re-ask allowed. */
export const SCORE_REQUEST: ObjectRequest = {
  pipeCode: 'score',
  systemPrompt: 'You score things.',
  userPrompt: 'Score this.',
  schemaName: 'Score',
  jsonSchema: { type: 'object', properties: { value: { type: 'integer' } }, required: ['value'] },
  validate: (value) => (Number.isInteger((value as { value?: unknown })?.value) ? [] : ['/value must be integer']),
  maxRetries: 1,
};

/**
 * The error a call ends in.
 * @param promise - the call
 * @throws Error when the call succeeds
 */
export async function failureOf(promise: Promise<unknown>): Promise<MthdsError> {
  try {
    await promise;
  } catch (error) {
    return error as MthdsError;
  }
  throw new Error('expected a failure');
}
