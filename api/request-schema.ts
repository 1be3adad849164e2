/**
 * Request validation at the edge, with the route's own schema as the one source of truth: a zod schema failure becomes
 * one 422 `ValidationError` whose detail names every offending field as `body.<path>: <message>`
 * (docs/api.md#request-validation), unless a refinement of the schema names its own answer ({@link refuseAs}).
 */
import type { z } from 'zod';
import { type MthdsError, ValidationError } from '../shared/errors/index.js';

/** An error class a refinement answers with: its `error_type`, and the detail it is built with. */
export type RequestProblem = new (detail: string) => MthdsError;

/**
 * Refuse a request, from a refinement of its route's schema, with the answer the route documents for that case: a
 * `problem` whose detail is `detail` as written (not a `body.<path>:` line). It answers only when the schema found
 * nothing else wrong; the first such refinement answers.
 * @param context - the refinement's context
 * @param problem - the error class of the answer
 * @param detail - the answer's `detail`
 */
export function refuseAs(context: z.RefinementCtx, problem: RequestProblem, detail: string): void {
  context.addIssue({ code: 'custom', message: detail, params: { problem } });
}

function problemOf(issue: z.core.$ZodIssue): RequestProblem | undefined {
  return issue.code === 'custom' ? (issue.params?.['problem'] as RequestProblem | undefined) : undefined;
}

/**
 * Parse part of a request with its route's schema.
 * @param schema - the route's schema of that part
 * @param value - the part: the parsed JSON body, the query, a header's value
 * @param location - how the detail names the part (`body`, `query`, `header.Last-Event-ID`)
 * @returns the typed value
 * @throws ValidationError (422) listing each issue; or the answer a refinement named with {@link refuseAs}, when
 *   every issue is one of those
 */
export function parseRequest<T extends z.ZodType>(schema: T, value: unknown, location = 'body'): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.filter((issue) => problemOf(issue) === undefined);
  if (issues.length === 0) {
    const [answered] = result.error.issues;
    throw new (problemOf(answered!)!)(answered!.message);
  }
  const detail = issues
    .map((issue) => `${[location, ...issue.path.map(String)].join('.')}: ${issue.message}`)
    .join('; ');
  throw new ValidationError(detail);
}
