/**
 * Checks wire bodies against the reference OpenAPI (`../shared/reference/pipelex-api.openapi.yaml`, contract 0.16.0)
 * with ajv, in JSON Schema 2020-12 as OpenAPI 3.1 uses it: against one component schema, or against what the reference
 * declares for a route's response (its status, content types and schema).
 *
 * The component schemas are registered as the `$defs` of one schema. OpenAPI's `discriminator` annotates a `oneOf`
 * whose branches already exclude one another (ajv's own discriminator support refuses `mapping`), so it is declared as
 * an annotation and the `oneOf` decides; so is the reference's `x-schema-required`. Suites importing this helper need
 * `../shared`: the mocha configuration leaves them out, with a message, where it is absent.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const REFERENCE = new URL('../../../shared/reference/pipelex-api.openapi.yaml', import.meta.url);
const SCHEMA_ID = 'https://reference.invalid/pipelex-api.schemas.json';
const COMPONENT_PREFIX = '#/components/schemas/';

interface ReferenceSchema {
  $ref?: string;
  oneOf?: ReferenceSchema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}

interface ReferenceResponse {
  content?: Record<string, { schema?: ReferenceSchema }>;
}

interface ReferenceDocument {
  paths: Record<string, Record<string, { responses?: Record<string, ReferenceResponse> }>>;
  components: { schemas: Record<string, unknown> };
}

let document: ReferenceDocument | undefined;
let compiler: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

function referenceDocument(): ReferenceDocument {
  document ??= parse(readFileSync(REFERENCE, 'utf8')) as ReferenceDocument;
  return document;
}

/** A schema with its `#/components/schemas/X` references pointed at the registered `$defs`. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string'
        ? value.replace(COMPONENT_PREFIX, `${SCHEMA_ID}#/$defs/`)
        : rebase(value),
    ]),
  );
}

function reference(): Ajv2020 {
  if (compiler) return compiler;
  compiler = addFormats(new Ajv2020({ allErrors: true, strict: true, strictRequired: false }));
  compiler.addKeyword({ keyword: 'discriminator' });
  compiler.addKeyword({ keyword: 'x-schema-required' });
  compiler.addSchema({ $id: SCHEMA_ID, $defs: rebase(referenceDocument().components.schemas) });
  return compiler;
}

/**
 * The errors of a body against one component schema of the reference.
 * @param component - a name under `components.schemas`, e.g. `TokensUsageRecord`
 * @param body - the decoded JSON body (or a part of it)
 * @returns ajv's errors, empty when the body conforms
 * @throws Error when the reference has no such component
 */
export function referenceErrors(component: string, body: unknown): ErrorObject[] {
  let validate = validators.get(component);
  if (!validate) {
    validate = reference().getSchema(`${SCHEMA_ID}#/$defs/${component}`);
    if (!validate) throw new Error(`The reference OpenAPI has no component schema '${component}'`);
    validators.set(component, validate);
  }
  return validate(body) ? [] : [...(validate.errors ?? [])];
}

/**
 * The path template of the reference that a request path matches (`{param}` matching one segment).
 * @param method - the HTTP method, any case
 * @param path - the request path, without query
 * @returns the template, e.g. `/v1/build/inputs`, or null when the reference declares no such route for the method
 */
export function referenceRoute(method: string, path: string): string | null {
  const verb = method.toLowerCase();
  for (const [template, operations] of Object.entries(referenceDocument().paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^/}]+\}/g, '[^/]+')}$`);
    if (pattern.test(path) && operations[verb]?.responses) return template;
  }
  return null;
}

/** What the reference declares for one response of a route. */
export interface DeclaredResponse {
  /** The media types the reference lists for it, e.g. `['application/problem+json']`. */
  contentTypes: string[];
  /**
   * Check a body of one of those media types: against the component the schema names, or its discriminator maps the
   * body's discriminating member to (a body without a mapped value fails with one `discriminator` error: OpenAPI
   * requires the member), else against the declared schema whole.
   * @returns the component checked (or `inline`) and the errors, in ajv's form, empty when the body conforms
   * @throws Error when the reference declares no body of that media type
   */
  check(contentType: string, body: unknown): { schema: string; errors: ErrorObject[] };
}

function discriminated(schema: ReferenceSchema, body: unknown): string | null {
  const mapping = schema.discriminator?.mapping;
  if (!mapping || body === null || typeof body !== 'object') return null;
  const value = (body as Record<string, unknown>)[schema.discriminator!.propertyName];
  const key = typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value);
  const target = mapping[key];
  return target?.startsWith(COMPONENT_PREFIX) ? target.slice(COMPONENT_PREFIX.length) : null;
}

function schemaErrors(schema: ReferenceSchema, body: unknown): { schema: string; errors: ErrorObject[] } {
  if (schema.$ref?.startsWith(COMPONENT_PREFIX)) {
    const component = schema.$ref.slice(COMPONENT_PREFIX.length);
    return { schema: component, errors: referenceErrors(component, body) };
  }
  if (schema.discriminator?.mapping) {
    const component = discriminated(schema, body);
    if (component) return { schema: component, errors: referenceErrors(component, body) };
    const { propertyName, mapping } = schema.discriminator;
    const error: ErrorObject = {
      keyword: 'discriminator',
      instancePath: '',
      schemaPath: '#/discriminator',
      params: { propertyName, mapping: Object.keys(mapping) },
      message: `must carry '${propertyName}' with a value the discriminator maps`,
    };
    return { schema: 'inline', errors: [error] };
  }
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = reference().compile(rebase(schema) as object);
    validators.set(key, validate);
  }
  return { schema: 'inline', errors: validate(body) ? [] : [...(validate.errors ?? [])] };
}

/**
 * The reference's declaration of one response of a route: the exact status, else its class (`4XX`), else `default`.
 * @param method - the HTTP method, any case
 * @param template - a path template from {@link referenceRoute}
 * @param status - the HTTP status answered
 * @returns the declaration, or null when the reference declares no such status for the route
 */
export function referenceResponse(method: string, template: string, status: number): DeclaredResponse | null {
  const responses = referenceDocument().paths[template]?.[method.toLowerCase()]?.responses ?? {};
  const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses['default'];
  if (!declared) return null;
  const content = declared.content ?? {};
  return {
    contentTypes: Object.keys(content),
    check(contentType, body) {
      const schema = content[contentType]?.schema;
      if (!schema) throw new Error(`The reference declares no ${contentType} body for ${method} ${template} ${status}`);
      return schemaErrors(schema, body);
    },
  };
}
