/**
 * Checks wire bodies against the schemas of the reference OpenAPI (`../shared/reference/pipelex-api.openapi.yaml`,
 * contract 0.16.0) with ajv, in JSON Schema 2020-12 as OpenAPI 3.1 uses it.
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

let compiler: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();

/** A schema with its `#/components/schemas/X` references pointed at the registered `$defs`. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string'
        ? value.replace('#/components/schemas/', `${SCHEMA_ID}#/$defs/`)
        : rebase(value),
    ]),
  );
}

function reference(): Ajv2020 {
  if (compiler) return compiler;
  const document = parse(readFileSync(REFERENCE, 'utf8')) as { components: { schemas: Record<string, unknown> } };
  compiler = addFormats(new Ajv2020({ allErrors: true, strict: true, strictRequired: false }));
  compiler.addKeyword({ keyword: 'discriminator' });
  compiler.addKeyword({ keyword: 'x-schema-required' });
  compiler.addSchema({ $id: SCHEMA_ID, $defs: rebase(document.components.schemas) });
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
