/**
 * JSON schemas of concept content (draft 2020-12), used for structured LLM output, input validation and I/O
 * contracts. Mapping of docs/concepts.md#structure-fields: text → string, integer, number, boolean, date/datetime/time
 * → ISO string, list → array
 * (items from `item_type`, text when absent), dict → object (values from `value_type`), concept → `$ref`, choices →
 * enum. Required fields are listed in `required`; optional ones are nullable. Refinement takes the parent's shape;
 * a description-only concept is Text-shaped. Nested concepts live under `$defs` (cycles become `$ref` loops).
 */
import type { Concept, ConceptField } from './concept.js';
import { NATIVE_CONCEPTS } from './natives.js';

type Schema = Record<string, unknown>;
const SCALARS: Record<string, Schema> = {
  text: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', description: 'ISO 8601 date or date-time' },
  datetime: { type: 'string', description: 'ISO 8601 date-time' },
  time: { type: 'string', description: 'ISO 8601 time (HH:MM:SS, optional offset)' },
};

/** What a content schema is built from: the library's concepts and their refinement chains (`MthdsLibrary`). */
export interface ConceptCatalog {
  readonly concepts: ReadonlyMap<string, Concept>;
  /**
   * A concept and the concepts it refines, nearest first.
   * @param concept - a concept of the catalog
   */
  ancestry(concept: Concept): Concept[];
}

class SchemaBuilder {
  readonly defs: Record<string, Schema> = {};

  constructor(private readonly library: ConceptCatalog) {}

  /** The concept whose content shape `concept` takes: itself if structured or native, else up the refinement chain. */
  private shapeOf(concept: Concept): Concept {
    for (const ancestor of this.library.ancestry(concept)) {
      if (ancestor.isNative || ancestor.structure !== null) return ancestor;
    }
    return this.library.concepts.get('native.Text')!;
  }

  private defName(concept: Concept): string {
    return concept.isNative ? concept.code : concept.ref.replace(/\./g, '__');
  }

  refTo(ref: string): Schema {
    const concept = this.library.concepts.get(ref);
    if (!concept) return {};
    const shape = this.shapeOf(concept);
    const name = this.defName(shape);
    if (!(name in this.defs)) {
      this.defs[name] = {};
      this.defs[name] = this.body(shape);
    }
    return { $ref: `#/$defs/${name}` };
  }

  body(concept: Concept): Schema {
    const shape = this.shapeOf(concept);
    if (shape.isNative) {
      const { $defs, ...body } = NATIVE_CONCEPTS.get(shape.code)!.schema;
      for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, Schema>)) this.defs[name] ??= def;
      return { ...body, description: shape.description };
    }
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const [name, field] of Object.entries(shape.structure ?? {})) {
      const value: Schema = { ...this.fieldSchema(field), description: field.description };
      if (field.default_value !== undefined) value['default'] = field.default_value;
      if (field.required) {
        required.push(name);
        properties[name] = value;
      } else {
        properties[name] = {
          anyOf: [value, { type: 'null' }],
          description: field.description,
          default: field.default_value ?? null,
        };
      }
    }
    return {
      type: 'object',
      title: shape.code,
      description: shape.description,
      properties,
      required,
      additionalProperties: false,
    };
  }

  private valueSchema(type: string | undefined, conceptRef: string | undefined): Schema {
    if (type === 'concept' && conceptRef) return this.refTo(conceptRef);
    return SCALARS[type ?? 'text'] ?? {};
  }

  private fieldSchema(field: ConceptField): Schema {
    if (field.choices && field.choices.length > 0) return { type: 'string', enum: field.choices };
    switch (field.type) {
      case 'list':
        return { type: 'array', items: this.valueSchema(field.item_type, field.item_concept_ref) };
      case 'dict':
        return { type: 'object', additionalProperties: this.valueSchema(field.value_type, undefined) };
      case 'concept':
        return this.valueSchema('concept', field.concept_ref);
      default:
        return this.valueSchema(field.type, undefined);
    }
  }
}

/**
 * The schema of one content item of a concept.
 * @param library - the library the concept belongs to
 * @param concept - the concept
 */
export function buildContentSchema(library: ConceptCatalog, concept: Concept): Record<string, unknown> {
  const builder = new SchemaBuilder(library);
  const body = builder.body(concept);
  const schema: Schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...body,
    description: concept.description,
  };
  if (Object.keys(builder.defs).length > 0) schema['$defs'] = builder.defs;
  return schema;
}
