/**
 * The `json_schema` of a `pipe_io_contracts` entry, written as the reference runner writes it (pipelex's pydantic
 * schemas, as served to `Pipelex/mthds-form`; docs/forms.md): a concept's content is an object titled with the
 * concept's namespaced ref (`summarize_people.Person`, `native.Text`); every property has the field's `description`
 * and a `title` made from its name (`birth_year` → `Birth Year`) unless it is a `$ref`; an optional field is
 * `anyOf: [<type>, {type: "null"}]` with `default` (null unless the field declares one); `required` is absent when no
 * field is required; nested concepts live under `$defs` named `<domain>__<Code>` (natives by their content class,
 * `ImageContent`). One input item is the concept's schema, a list input an array of it (`minItems` = `maxItems` = N
 * for `X[N]`), a list output the list-content object `ListContent[<def>]` with its items under `items`.
 *
 * This describes content to clients; the runtime validates content with its own schemas (`Library.contentSchema`).
 */
import type { Concept, ConceptField, Library, Multiplicity } from '../mthds/index.js';
import { contentShape } from './concept-shapes.js';

type Schema = Record<string, unknown>;

const SCALARS: Readonly<Record<string, Schema>> = {
  text: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { format: 'date', type: 'string' },
  datetime: { format: 'date-time', type: 'string' },
  time: { format: 'time', type: 'string' },
};

/**
 * A property title as pydantic derives it from a field name: Python's `str.title()` (each run of letters capitalized,
 * the rest lower-cased), underscores turned to spaces, trimmed.
 * @param name - a field name, e.g. `birth_year`
 * @returns e.g. `Birth Year`
 */
export function propertyTitle(name: string): string {
  return name
    .replace(/\p{L}+/gu, (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .replace(/_/g, ' ')
    .trim();
}

class ContractSchemaBuilder {
  readonly defs: Record<string, Schema> = {};

  constructor(private readonly library: Library) {}

  defName(concept: Concept): string {
    return concept.isNative ? concept.structure_class_name : `${concept.domain_code}__${concept.code}`;
  }

  refTo(concept: Concept): Schema {
    const name = this.defName(concept);
    if (!(name in this.defs)) {
      this.defs[name] = {};
      this.defs[name] = this.body(concept, name);
    }
    return { $ref: `#/$defs/${name}` };
  }

  body(concept: Concept, title: string): Schema {
    const { shape, fields } = contentShape(this.library, concept);
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const [name, field] of Object.entries(fields)) {
      properties[name] = this.property(name, field, shape.domain_code);
      if (field.required) required.push(name);
    }
    return {
      description: concept.description,
      properties,
      ...(required.length > 0 ? { required } : {}),
      title,
      type: 'object',
    };
  }

  private property(name: string, field: ConceptField, fromDomain: string): Schema {
    const value = this.fieldValue(field, fromDomain);
    const title = '$ref' in value ? {} : { title: propertyTitle(name) };
    if (field.required) {
      return {
        ...value,
        ...(field.default_value !== undefined ? { default: field.default_value } : {}),
        description: field.description,
        ...title,
      };
    }
    return {
      anyOf: [value, { type: 'null' }],
      default: field.default_value ?? null,
      description: field.description,
      ...title,
    };
  }

  private value(type: string | undefined, conceptRef: string | undefined, fromDomain: string): Schema {
    if (type === 'concept') {
      const concept = conceptRef === undefined ? undefined : this.library.findConcept(conceptRef, fromDomain);
      return concept ? this.refTo(concept) : {};
    }
    return SCALARS[type ?? 'text'] ?? {};
  }

  private fieldValue(field: ConceptField, fromDomain: string): Schema {
    if (field.choices && field.choices.length > 0) return { enum: field.choices, type: 'string' };
    switch (field.type) {
      case 'list':
        return { items: this.value(field.item_type, field.item_concept_ref, fromDomain), type: 'array' };
      case 'dict':
        return {
          additionalProperties:
            field.value_type === undefined ? true : this.value(field.value_type, undefined, fromDomain),
          type: 'object',
        };
      default:
        return this.value(field.type ?? 'text', field.concept_ref, fromDomain);
    }
  }

  withDefs(schema: Schema): Schema {
    return Object.keys(this.defs).length > 0 ? { $defs: this.defs, ...schema } : schema;
  }
}

/**
 * The `json_schema` of a pipe input: one content item of the concept, or an array of them for `X[]` / `X[N]`.
 * @param library - a valid library
 * @param concept - the input's concept
 * @param multiplicity - the input's multiplicity
 */
export function inputContractSchema(library: Library, concept: Concept, multiplicity: Multiplicity): Schema {
  const builder = new ContractSchemaBuilder(library);
  const item = builder.body(concept, concept.ref);
  if (multiplicity === 'single') return builder.withDefs(item);
  const count = typeof multiplicity === 'number' ? { maxItems: multiplicity, minItems: multiplicity } : {};
  return builder.withDefs({ items: item, ...count, type: 'array' });
}

/**
 * The `json_schema` of a pipe output: one content item of the concept, or for a list output (`X[]` or `X[N]`, whose
 * count rides the contract's `item_count`) the list content `{items: [...]}` titled `ListContent[<def>]`.
 * @param library - a valid library
 * @param concept - the output's concept
 * @param multiplicity - the output's multiplicity
 */
export function outputContractSchema(library: Library, concept: Concept, multiplicity: Multiplicity): Schema {
  if (multiplicity === 'single') return inputContractSchema(library, concept, multiplicity);
  const builder = new ContractSchemaBuilder(library);
  const item = builder.refTo(concept);
  return builder.withDefs({
    properties: { items: { items: item, title: 'Items', type: 'array' } },
    required: ['items'],
    title: `ListContent[${builder.defName(concept)}]`,
    type: 'object',
  });
}
