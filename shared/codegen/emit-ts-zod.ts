/**
 * The `ts-zod` projection (spec §4.7): one `types.ts` importing only `zod`, with, per emitted concept, an exported
 * TypeScript type and a `<Name>Schema` zod schema typed `z.ZodType<Name>`. Keys are the wire (JSON) names, so a
 * schema parses the runtime's content as it travels. Each schema body is `z.lazy`, so declaration order is free and
 * reference cycles type-check under `tsc --strict`.
 *
 * Mapping: text/date/datetime/time → `string`, integer → `number` (`.int()`), number, boolean, choices → `z.enum`, list
 * → array,
 * dict → `z.record(z.string(), …)`, a native's inline object (`Image.size`) → an inline `z.object`, concept → the
 * concept's
 * schema; an optional field is `.nullish()` (absent or
 * null), a default becomes `.default(…)`; a declared concept's object is strict (no unknown keys), a native's is not.
 */
import type { FieldType, TypedConcept, TypedField, TypeSet } from './type-model.js';

/** The artifact path of the projection. */
export const TS_ZOD_PATH = 'types.ts';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function doc(text: string, indent: string): string {
  const clean = text.replace(/\*\//g, '*\\/').replace(/\r?\n/g, ' ').trim();
  return clean.length > 0 ? `${indent}/** ${clean} */\n` : '';
}

function tsType(types: TypeSet, type: FieldType): string {
  switch (type.kind) {
    case 'text':
    case 'date':
    case 'datetime':
    case 'time':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'any':
      return 'unknown';
    case 'enum':
      return type.choices.map((choice) => JSON.stringify(choice)).join(' | ');
    case 'list':
      return `Array<${tsType(types, type.item)}>`;
    case 'dict':
      return `Record<string, ${tsType(types, type.value)}>`;
    case 'object':
      return `{ ${type.fields.map((field) => memberText(types, field)).join('; ')} }`;
    case 'concept':
      return types.nameOf(type.ref);
  }
}

function zodType(types: TypeSet, type: FieldType): string {
  switch (type.kind) {
    case 'text':
    case 'date':
    case 'datetime':
    case 'time':
      return 'z.string()';
    case 'integer':
      return 'z.number().int()';
    case 'number':
      return 'z.number()';
    case 'boolean':
      return 'z.boolean()';
    case 'any':
      return 'z.unknown()';
    case 'enum':
      return `z.enum([${type.choices.map((choice) => JSON.stringify(choice)).join(', ')}])`;
    case 'list':
      return `z.array(${zodType(types, type.item)})`;
    case 'dict':
      return `z.record(z.string(), ${zodType(types, type.value)})`;
    case 'object':
      return `z.object({ ${type.fields.map((field) => schemaText(types, field)).join(', ')} })`;
    case 'concept':
      return `${types.nameOf(type.ref)}Schema`;
  }
}

function memberText(types: TypeSet, field: TypedField): string {
  const absent = field.required && field.default === undefined ? '' : '?';
  const nullable = field.required ? '' : ' | null';
  return `${key(field.name)}${absent}: ${tsType(types, field.type)}${nullable}`;
}

function schemaText(types: TypeSet, field: TypedField): string {
  let expression = zodType(types, field.type);
  if (!field.required) expression += '.nullish()';
  if (field.default !== undefined) expression += `.default(${JSON.stringify(field.default)})`;
  return `${key(field.name)}: ${expression}`;
}

function fieldMember(types: TypeSet, field: TypedField): string {
  return `${doc(field.description, '  ')}  ${memberText(types, field)};`;
}

function fieldSchema(types: TypeSet, field: TypedField): string {
  return `    ${schemaText(types, field)},`;
}

function conceptBlock(types: TypeSet, concept: TypedConcept): string {
  const { name, shape } = concept;
  const header = doc(concept.description, '');
  const schema = (type: string, body: string) =>
    `export const ${name}Schema: z.ZodType<${type}> = z.lazy(() =>\n  ${body},\n);`;
  switch (shape.kind) {
    case 'alias': {
      const target = types.nameOf(shape.target);
      return `${header}export type ${name} = ${target};\n${schema(name, `${target}Schema`)}`;
    }
    case 'open':
      return `${header}export type ${name} = Record<string, unknown>;\n${schema(name, 'z.record(z.string(), z.unknown())')}`;
    case 'struct': {
      const members = shape.fields.map((field) => fieldMember(types, field)).join('\n');
      const entries = shape.fields.map((field) => fieldSchema(types, field)).join('\n');
      const factory = shape.closed ? 'z.strictObject' : 'z.object';
      const typeDecl =
        shape.fields.length > 0
          ? `export interface ${name} {\n${members}\n}`
          : `export type ${name} = Record<string, never>;`;
      const body = shape.fields.length > 0 ? `${factory}({\n${entries}\n  })` : `${factory}({})`;
      return `${header}${typeDecl}\n${schema(name, body)}`;
    }
  }
}

/**
 * Emit the `types.ts` body (unstamped).
 * @param types - the library's type model
 * @returns TypeScript source importing `zod` (v4)
 * @see spec §4.7, docs/concepts.md#structure-fields, docs/runtime.md#native-contents
 */
export function emitTsZod(types: TypeSet): string {
  const blocks = types.concepts.map((concept) => conceptBlock(types, concept));
  return [
    '// Types of the MTHDS concepts of a method: a zod schema and a TypeScript type per concept (wire field names).',
    '// Generated by codegen (projection types / ts-zod); do not edit.',
    "import { z } from 'zod';",
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}
