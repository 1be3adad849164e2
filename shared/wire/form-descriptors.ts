/**
 * Form descriptors of `/v1/validate` `views` (docs/forms.md#form-descriptors): for each pipe, the fields a form needs
 * to collect
 * its inputs (`input_form`) and to show its output (`output_form`), in the shapes the reference runner serves to
 * `Pipelex/mthds-form` (docs/forms.md). Nodes are discriminated on `kind` (`prose` for text concepts, `text` for text
 * fields, `number`, `boolean`, `date`, `enum`, `document`, `image`, `object` — structured natives such as `native.Page`
 * included —, `list`, `unknown`); absent members are omitted.
 */
import type { Concept, ConceptField, Library, Multiplicity, Pipe, Presence } from '../mthds/index.js';
import { conceptAncestry, contentShape } from './concept-shapes.js';

/** One form node. `name` is absent on list items. Members are emitted in this order; absent ones are omitted. */
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
  /** The concepts `concept_ref` refines, nearest first; absent when it refines none. */
  refines?: string[];
  description?: string;
  required: boolean;
  /**
   * Top-level input nodes only: the input's presence marker
   * (docs/language.md#optionality-presence-markers-and-absences). A plain or force-marked (`!`) input
   * is required; an optional (`?`) one is not, and never gates (the `mthds-form` standard's
   * `{required: false, presence:
   * "optional", gating: false}`: a form may run without it, and then omits it).
   */
  presence?: Presence;
  /** Top-level input nodes only: whether a form waits for this input before it can run (false for a variable list and
   * for an optional input). */
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

type NodeBody = Omit<FormNode, 'kind' | 'name'>;

function node(kind: FormNode['kind'], name: string | undefined, body: NodeBody): FormNode {
  return name === undefined ? { kind, ...body } : { kind, name, ...body };
}

/** What a concept-typed node says of its concept: its ref, what it refines, a description. */
interface ConceptFacts {
  concept_ref: string;
  refines?: string[];
  description: string;
}

class FormBuilder {
  constructor(private readonly library: Library) {}

  private facts(concept: Concept, description: string | undefined): ConceptFacts {
    const refines = conceptAncestry(this.library, concept)
      .slice(1)
      .map((ancestor) => ancestor.ref);
    return {
      concept_ref: concept.ref,
      ...(refines.length > 0 ? { refines } : {}),
      description: description ?? concept.description,
    };
  }

  /**
   * The node of one content item of a concept: `prose` for text concepts, `image` / `document` for those natives and
   * their refinements, `number` for `native.Number`, otherwise an `object` of the content's fields (natives included).
   */
  conceptNode(
    concept: Concept,
    name: string | undefined,
    required: boolean,
    description: string | undefined,
    depth: number,
  ): FormNode {
    const base = { ...this.facts(concept, description), required };
    const natives = conceptAncestry(this.library, concept).map((ancestor) => ancestor.ref);
    if (this.library.isTextLike(concept)) return node('prose', name, base);
    if (natives.includes('native.Image')) return node('image', name, base);
    if (natives.includes('native.Document')) return node('document', name, base);
    if (natives.includes('native.Number')) return node('number', name, { ...base, integer: false });
    if (depth > MAX_DEPTH) return node('unknown', name, base);
    const { shape, fields } = contentShape(this.library, concept);
    return node('object', name, {
      ...base,
      fields: Object.entries(fields).map(([fieldName, field]) =>
        this.fieldNode(fieldName, field, shape.domain_code, depth + 1),
      ),
    });
  }

  private valueNode(
    type: string | undefined,
    conceptRef: string | undefined,
    fromDomain: string,
    name: string | undefined,
    body: NodeBody,
    depth: number,
  ): FormNode {
    switch (type ?? 'text') {
      case 'integer':
        return node('number', name, { ...body, integer: true });
      case 'number':
        return node('number', name, { ...body, integer: false });
      case 'boolean':
        return node('boolean', name, body);
      case 'date':
        return node('date', name, { ...body, datetime: false });
      case 'datetime':
        return node('date', name, { ...body, datetime: true });
      case 'time':
        return node('text', name, body);
      case 'dict':
        return node('object', name, { ...body, fields: [] });
      case 'concept': {
        const found = conceptRef === undefined ? undefined : this.library.findConcept(conceptRef, fromDomain);
        return found
          ? this.conceptNode(found, name, body.required, body.description, depth)
          : node('unknown', name, body);
      }
      case 'text':
        return node('text', name, body);
      default:
        return node('unknown', name, body);
    }
  }

  private fieldNode(name: string, field: ConceptField, fromDomain: string, depth: number): FormNode {
    const body: NodeBody = {
      description: field.description,
      required: field.required,
      ...(field.default_value !== undefined && field.default_value !== null && !field.required
        ? { default_value: field.default_value }
        : {}),
    };
    if (field.choices && field.choices.length > 0) return node('enum', name, { ...body, choices: field.choices });
    if (field.type !== 'list') return this.valueNode(field.type, field.concept_ref, fromDomain, name, body, depth);
    const item = this.valueNode(
      field.item_type,
      field.item_concept_ref,
      fromDomain,
      undefined,
      { required: true },
      depth,
    );
    const itemConcept =
      field.item_type === 'concept' && field.item_concept_ref !== undefined
        ? this.library.findConcept(field.item_concept_ref, fromDomain)
        : undefined;
    const facts = itemConcept ? this.facts(itemConcept, field.description) : {};
    return node('list', name, { ...facts, ...body, item });
  }

  ioNode(
    name: string,
    conceptRef: string,
    multiplicity: Multiplicity,
    fromDomain: string,
    topLevel: boolean,
  ): FormNode {
    const concept = this.library.resolveConcept(conceptRef, fromDomain);
    if (multiplicity === 'single') {
      const single = this.conceptNode(concept, name, true, undefined, 0);
      return topLevel ? withPresence(single, true) : single;
    }
    const item = this.conceptNode(concept, undefined, true, undefined, 0);
    const list = node('list', name, { ...this.facts(concept, undefined), required: true });
    const gated = topLevel ? withPresence(list, typeof multiplicity === 'number') : list;
    return { ...gated, item, ...(typeof multiplicity === 'number' ? { item_count: multiplicity } : {}) };
  }
}

/** A top-level input node with `presence` and `gating` placed after `required`, as the node's member order has them. */
function withPresence(field: FormNode, gating: boolean): FormNode {
  const { kind, name, concept_ref, refines, description, required, ...rest } = field;
  return {
    ...node(kind, name, {
      ...(concept_ref === undefined ? {} : { concept_ref }),
      ...(refines === undefined ? {} : { refines }),
      ...(description === undefined ? {} : { description }),
      required,
    }),
    presence: 'plain',
    gating,
    ...rest,
  };
}

/**
 * Input forms of every pipe, keyed by qualified ref.
 * @param library - a valid library
 * @param pipes - only these pipes of the library (`POST /v1/pipe-io`); every pipe, sorted by ref, when absent
 */
export function inputForms(
  library: Library,
  pipes: readonly Pipe[] = sortedPipes(library),
): Record<string, PipeInputFormDescriptor> {
  const builder = new FormBuilder(library);
  return Object.fromEntries(
    pipes.map((pipe) => [
      pipe.ref,
      {
        fields: pipe.inputs.map((input) => {
          const field = builder.ioNode(input.name, input.conceptRef, input.multiplicity, pipe.domain_code, true);
          if (input.presence === 'plain') return field;
          if (input.presence === 'force') return { ...field, presence: input.presence };
          return { ...field, required: false, presence: input.presence, gating: false };
        }),
      },
    ]),
  );
}

/**
 * Output forms of every pipe, keyed by qualified ref.
 * @param library - a valid library
 * @param pipes - only these pipes of the library (`POST /v1/pipe-io`); every pipe, sorted by ref, when absent
 */
export function outputForms(
  library: Library,
  pipes: readonly Pipe[] = sortedPipes(library),
): Record<string, PipeOutputFormDescriptor> {
  const builder = new FormBuilder(library);
  return Object.fromEntries(
    pipes.map((pipe) => [
      pipe.ref,
      { field: builder.ioNode('output', pipe.output.conceptRef, pipe.output.multiplicity, pipe.domain_code, false) },
    ]),
  );
}

function sortedPipes(library: Library): Pipe[] {
  return [...library.pipes.values()].sort((a, b) => a.ref.localeCompare(b.ref));
}
