/**
 * Request-body validation at the edge: a zod schema failure becomes one 422 `ValidationError` whose detail names
 * every offending field as `body.<path>: <message>` (API-CONTRACT.md §1.8).
 */
import type { z } from 'zod';
import { ValidationError } from '../shared/errors/index.js';

/**
 * Parse a body with a schema.
 * @param schema - the route's request schema
 * @param body - the parsed JSON body
 * @returns the typed body
 * @throws ValidationError (422) listing each issue
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const detail = result.error.issues
    .map((issue) => `${['body', ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
  throw new ValidationError(detail);
}
