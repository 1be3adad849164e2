/**
 * Form descriptors of `/v1/validate` `views` (API-CONTRACT.md §4.4): for each pipe, the fields a form needs to collect
 * its inputs (`input_form`) and to show its output (`output_form`). Nodes are discriminated on `kind` (`text`,
 * `number`, `boolean`, `date`, `enum`, `document`, `image`, `object`, `list`, `unknown`); absent members are omitted.
 */
import type { Concept, ConceptField, Library, Multiplicity, Pipe } from '../mthds/index.js';

/** One form node. `name` is absent on list items. */
export interface FormNode {
  kind:
    | 'text'
    | 'prose'
    | 'date'
    | 'number'
    | 'boolean'
    | 'enum'
    | 'document'
    | 'image'
    | 'object'
    | 'list'
    | 'unknown';
  name?: string;
  concept_ref?: string;
  description?: string;
  required: boolean;
  presence?: 'plain';
  gating?: boolean;
  default_value?: unknown;
  integer?: boolean;
  datetime?: boolean;
  choices?: string[];
  fields?: FormNode[];
  item?: FormNode;
  item_count?: number;
}

/** `input_form` entry. */
export interface PipeInputFormDescriptor {
  fields: FormNode[];
}

/** `output_form` entry. */
export interface PipeOutputFormDescriptor {
  field: FormNode;
}

const MAX_DEPTH = 6;

function named(name: string | undefined, node: Omit<FormNode, 'name'>): FormNode {
  const { kind, ...rest } = node;
  return name === undefined ? { kind, ...rest } : { kind, name, ...rest };
}

class FormBuilder {
  constructor(private readonly library: Library) {}

  /** The concept and its refinement ancestors, nearest first. */
  private ancestry(concept: Concept): Concept[] {
    const chain: Concept[] = [];
    for (
      let current: Concept | undefined = concept;
      current && !chain.includes(current);
      current = current.refines === null ? undefined : this.library.concepts.get(current.refines)
    ) {
      chain.push(current);
    }
    return chain;
  }

  conceptNode(concept: Concept, name: string | undefined, required: boolean, depth: number): FormNode {
    const base = { concept_ref: concept.ref, description: concept.description, required };
    const natives = this.ancestry(concept).map((ancestor) => ancestor.ref);
    if (this.library.isTextLike(concept)) return named(name, { kind: 'text', ...base });
    if (natives.includes('native.Image')) return named(name, { kind: 'image', ...base });
    if (natives.includes('native.Document')) return named(name, { kind: 'document', ...base });
    if (natives.includes('native.Number')) return named(name, { kind: 'number', integer: false, ...base });
    const shaped = this.ancestry(concept).find((ancestor) => ancestor.structure !== null);
    if (!shaped || depth > MAX_DEPTH) return named(name, { kind: 'unknown', ...base });
    const fields = Object.entries(shaped.structure ?? {}).map(([fieldName, field]) =>
      this.fieldNode(fieldName, field, concept.domain_code, depth + 1),
    );
    return named(name, { kind: 'object', ...base, fields });
  }

  private valueNode(
    type: string | undefined,
    conceptRef: string | undefined,
    fromDomain: string,
    name: string | undefined,
    required: boolean,
    depth: number,
  ): FormNode {
    switch (type ?? 'text') {
      case 'integer':
        return named(name, { kind: 'number', integer: true, required });
      case 'number':
        return named(name, { kind: 'number', integer: false, required });
      case 'boolean':
        return named(name, { kind: 'boolean', required });
      case 'date':
        return named(name, { kind: 'date', datetime: false, required });
      case 'concept': {
        const found = conceptRef === undefined ? undefined : this.library.findConcept(conceptRef, fromDomain);
        return found ? this.conceptNode(found, name, required, depth) : named(name, { kind: 'unknown', required });
      }
      case 'text':
        return named(name, { kind: 'text', required });
      default:
        return named(name, { kind: 'unknown', required });
    }
  }

  private fieldNode(name: string, field: ConceptField, fromDomain: string, depth: number): FormNode {
    const extra = {
      description: field.description,
      ...(field.default_value !== undefined && !field.required ? { default_value: field.default_value } : {}),
    };
    if (field.choices && field.choices.length > 0)
      return { ...named(name, { kind: 'enum', choices: field.choices, required: field.required }), ...extra };
    if (field.type === 'list') {
      return {
        ...named(name, {
          kind: 'list',
          required: field.required,
          item: this.valueNode(field.item_type, field.item_concept_ref, fromDomain, undefined, true, depth),
        }),
        ...extra,
      };
    }
    if (field.type === 'dict') return { ...named(name, { kind: 'unknown', required: field.required }), ...extra };
    return { ...this.valueNode(field.type, field.concept_ref, fromDomain, name, field.required, depth), ...extra };
  }

  ioNode(
    name: string,
    conceptRef: string,
    multiplicity: Multiplicity,
    fromDomain: string,
    topLevel: boolean,
  ): FormNode {
    const concept = this.library.resolveConcept(conceptRef, fromDomain);
    const presence = topLevel ? { presence: 'plain' as const } : {};
    if (multiplicity === 'single') {
      const node = this.conceptNode(concept, name, true, 0);
      return topLevel ? { ...node, ...presence, gating: true } : node;
    }
    const item = this.conceptNode(concept, undefined, true, 0);
    const count = typeof multiplicity === 'number' ? { item_count: multiplicity } : {};
    const node = named(name, { kind: 'list', concept_ref: concept.ref, required: true, item, ...count });
    return topLevel ? { ...node, ...presence, gating: typeof multiplicity === 'number' } : node;
  }
}

/**
 * Input forms of every pipe, keyed by qualified ref.
 * @param library - a valid library
 */
export function inputForms(library: Library): Record<string, PipeInputFormDescriptor> {
  const builder = new FormBuilder(library);
  return Object.fromEntries(
    sortedPipes(library).map((pipe) => [
      pipe.ref,
      {
        fields: pipe.inputs.map((input) =>
          builder.ioNode(input.name, input.conceptRef, input.multiplicity, pipe.domain_code, true),
        ),
      },
    ]),
  );
}

/**
 * Output forms of every pipe, keyed by qualified ref.
 * @param library - a valid library
 */
export function outputForms(library: Library): Record<string, PipeOutputFormDescriptor> {
  const builder = new FormBuilder(library);
  return Object.fromEntries(
    sortedPipes(library).map((pipe) => [
      pipe.ref,
      { field: builder.ioNode('output', pipe.output.conceptRef, pipe.output.multiplicity, pipe.domain_code, false) },
    ]),
  );
}

function sortedPipes(library: Library): Pipe[] {
  return [...library.pipes.values()].sort((a, b) => a.ref.localeCompare(b.ref));
}
