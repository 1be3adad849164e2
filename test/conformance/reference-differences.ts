/**
 * How the responses the SDK and the CLI received compare with the reference OpenAPI, and the documented list of
 * intended differences (`test/fixtures/conformance/reference-differences.json`, rendered in docs/conformance.md).
 *
 * Each exchange is checked against what the reference declares for its route and status: the status must be declared,
 * the media type one of those declared, the body valid against the declared schema. A route the reference does not
 * declare is a difference of its own; its problem documents are still checked against `ProblemDocument`, and the
 * parts of its other bodies its documented entry names against their components. Every difference found must match a
 * documented entry; the suite fails on any other.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { z } from 'zod';
import type { Exchange } from '../helpers/recording-server.js';
import { referenceErrors, referenceResponse, referenceRoute } from '../helpers/reference-openapi.js';

const PROBLEM = 'application/problem+json';

const entrySchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/),
    /** `METHOD /path/{param}`. */
    route: z.string().regex(/^(GET|POST|PUT|PATCH|DELETE|OPTIONS|HEAD) \/\S*$/),
    status: z.number().int().optional(),
    kind: z.enum(['route', 'status', 'content-type', 'schema']),
    /** The failing JSON Schema keyword (`schema` kind). */
    keyword: z.string().optional(),
    /** A regular expression the whole instance path must match (`schema` kind). */
    instancePath: z.string().optional(),
    /** Members the error's params must have, with these values (`schema` kind). */
    params: z.record(z.string(), z.unknown()).optional(),
    /** Only for requests whose JSON body has this member. */
    requestHas: z.string().optional(),
    /** For a `route` entry: per status, JSON pointers of the body to check against these components. */
    parts: z.record(z.string(), z.record(z.string(), z.string())).optional(),
    what: z.string().min(1),
    reason: z.string().min(1),
  })
  .strict();

/** One documented, intended difference from the reference. */
export type DocumentedDifference = z.infer<typeof entrySchema>;

/**
 * The documented list.
 * @returns its entries, in the file's order
 * @throws ZodError when the file does not have the shape above
 */
export function documentedDifferences(): DocumentedDifference[] {
  const file = new URL('../fixtures/conformance/reference-differences.json', import.meta.url);
  const data = z
    .object({ reference: z.string(), differences: z.array(entrySchema) })
    .strict()
    .parse(JSON.parse(readFileSync(file, 'utf8')));
  return data.differences;
}

/** A difference found in one exchange. */
export interface FoundDifference {
  /** `METHOD template` of the reference or of a documented route entry, else `METHOD path` as requested. */
  route: string;
  status: number;
  kind: DocumentedDifference['kind'];
  keyword?: string;
  instancePath?: string;
  params?: Record<string, unknown>;
  /** The request's JSON body, for `requestHas`. */
  request: unknown;
  /** What differs, for a failure message. */
  message: string;
}

/** What checking one exchange found. */
export interface ExchangeVerdict {
  /** Bodies (or parts) validated against a schema of the reference. */
  schemaChecks: number;
  differences: FoundDifference[];
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function routePattern(template: string): RegExp {
  return new RegExp(`^${template.replace(/\{[^/}]+\}/g, '[^/]+')}$`);
}

/** The JSON value at a pointer (`/a/b`), undefined when absent. */
function at(body: unknown, pointer: string): unknown {
  let value = body;
  for (const token of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

function schemaDifferences(
  errors: ErrorObject[],
  base: Omit<FoundDifference, 'kind' | 'message'>,
  schema: string,
  prefix = '',
): FoundDifference[] {
  return errors.map((error) => ({
    ...base,
    kind: 'schema',
    keyword: error.keyword,
    instancePath: prefix + error.instancePath,
    params: error.params,
    message: `${schema}${error.schemaPath.replace(/^#/, '')} at '${prefix + error.instancePath}': ${error.message ?? ''} ${JSON.stringify(error.params)}`,
  }));
}

/**
 * Check one exchange against the reference.
 * @param exchange - a recorded request and response
 * @param documented - the documented list (for its route entries and their parts)
 */
export function checkExchange(exchange: Exchange, documented: DocumentedDifference[]): ExchangeVerdict {
  const path = exchange.url.split('?')[0]!;
  const request = parsed(exchange.requestBody);
  const body = parsed(exchange.responseBody);
  const template = referenceRoute(exchange.method, path);
  const verdict: ExchangeVerdict = { schemaChecks: 0, differences: [] };
  const problem = () => {
    verdict.schemaChecks += 1;
    return referenceErrors('ProblemDocument', body);
  };
  if (template === null) {
    const entry = documented.find(
      (candidate) =>
        candidate.kind === 'route' &&
        candidate.route.startsWith(`${exchange.method} `) &&
        routePattern(candidate.route.slice(exchange.method.length + 1)).test(path),
    );
    const route = entry?.route ?? `${exchange.method} ${path}`;
    const base = { route, status: exchange.status, request };
    verdict.differences.push({ ...base, kind: 'route', message: `${route}: not a route of the reference` });
    if (exchange.contentType === PROBLEM) {
      verdict.differences.push(...schemaDifferences(problem(), base, 'ProblemDocument'));
    } else {
      for (const [pointer, component] of Object.entries(entry?.parts?.[String(exchange.status)] ?? {})) {
        verdict.schemaChecks += 1;
        const errors = referenceErrors(component, at(body, pointer));
        verdict.differences.push(...schemaDifferences(errors, base, component, pointer));
      }
    }
    return verdict;
  }
  const route = `${exchange.method} ${template}`;
  const base = { route, status: exchange.status, request };
  const declared = referenceResponse(exchange.method, template, exchange.status);
  if (!declared) {
    verdict.differences.push({ ...base, kind: 'status', message: `${route}: status ${exchange.status} not declared` });
    if (exchange.contentType === PROBLEM)
      verdict.differences.push(...schemaDifferences(problem(), base, 'ProblemDocument'));
    return verdict;
  }
  if (!declared.contentTypes.includes(exchange.contentType)) {
    verdict.differences.push({
      ...base,
      kind: 'content-type',
      params: { contentType: exchange.contentType },
      message: `${route} ${exchange.status}: '${exchange.contentType}', declared ${declared.contentTypes.join(', ')}`,
    });
    return verdict;
  }
  verdict.schemaChecks += 1;
  const { schema, errors } = declared.check(exchange.contentType, body);
  verdict.differences.push(...schemaDifferences(errors, base, schema));
  return verdict;
}

/**
 * Whether a documented entry accounts for a difference found.
 * @param entry - a documented difference
 * @param found - a difference found
 */
export function accountsFor(entry: DocumentedDifference, found: FoundDifference): boolean {
  if (entry.route !== found.route || entry.kind !== found.kind) return false;
  if (entry.status !== undefined && entry.status !== found.status) return false;
  if (entry.keyword !== undefined && entry.keyword !== found.keyword) return false;
  if (entry.instancePath !== undefined && !new RegExp(`^(?:${entry.instancePath})$`).test(found.instancePath ?? ''))
    return false;
  if (
    entry.params &&
    !Object.entries(entry.params).every(([key, value]) => isDeepStrictEqual(found.params?.[key], value))
  )
    return false;
  if (entry.requestHas !== undefined) {
    const request = found.request;
    if (request === null || typeof request !== 'object' || !(entry.requestHas in request)) return false;
  }
  return true;
}
