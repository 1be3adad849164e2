/**
 * Binding one input value of a run to a stuff (spec §2.3, docs/runtime.md#initial-working-memory): the accepted forms
 * (text, explicit `{concept, content}`, temporal strings, smart scalars, content objects typed by the entry pipe's
 * declared input, the working-memory form), each content validated against its concept and each stuff against the
 * declared input. `stuff-factory.ts` builds the whole initial working memory with it.
 */
import { StuffFactoryError } from '../errors/index.js';
import type { Concept, Library, Pipe, PipeIO } from '../mthds/index.js';
import { nativeRootOf } from './content-rendering.js';
import type { ContentValidator } from './content-validator.js';
import type { IdSource } from './ports.js';
import type { ItemContent, Stuff, StuffContent } from './stuff.js';
import { temporalContentOf } from './temporal-content.js';
import { WorkingMemory } from './working-memory.js';

/** What input binding needs. */
export interface StuffFactoryContext {
  library: Library;
  /** The entry pipe: its declared inputs type untyped objects and are checked against. */
  pipe: Pipe;
  validator: ContentValidator;
  ids: IdSource;
}

/** A JSON object, as parsed. */
export type JsonObject = Record<string, unknown>;

const TEXT_REF = 'native.Text';

/**
 * Smart inputs (docs/namespaces.md#cross-package-references): the member a bare JSON scalar fills for an input declared
 * as the native it
 * belongs to, or a refinement of it — a number for `Number`, a boolean for `YesNo`.
 */
const SCALAR_MEMBERS: Readonly<Record<string, { type: 'number' | 'boolean'; member: string }>> = {
  Number: { type: 'number', member: 'number' },
  YesNo: { type: 'boolean', member: 'yes_no' },
};

/**
 * Whether a value is a JSON object (not null, not an array).
 * @param value - any parsed JSON value
 */
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isExplicit(value: unknown): value is { concept: string; content: unknown } {
  return (
    isObject(value) && Object.keys(value).length === 2 && typeof value['concept'] === 'string' && 'content' in value
  );
}

/**
 * Binds the values of a run's `inputs` to stuffs, one input name at a time, typed by the entry pipe's declared inputs
 * and checked against them.
 */
export class InputBinder {
  constructor(private readonly context: StuffFactoryContext) {}

  private declared(name: string): PipeIO | undefined {
    return this.context.pipe.inputs.find((input) => input.name === name);
  }

  /**
   * A concept named by the caller: bare names resolve among natives, then in the single loaded domain declaring them
   * (spec §2.3).
   */
  private concept(ref: string): Concept {
    return this.context.library.resolveConcept(ref);
  }

  private textConceptFor(name: string): Concept {
    const declared = this.declared(name);
    if (declared) {
      const concept = this.concept(declared.conceptRef);
      if (this.context.library.isTextLike(concept)) return concept;
    }
    return this.concept(TEXT_REF);
  }

  /** The declared input's concept when it is shaped like a native Date or Time, with that native's code. */
  private temporalInput(name: string): { concept: Concept; native: string } | undefined {
    const declared = this.declared(name);
    if (!declared) return undefined;
    const concept = this.concept(declared.conceptRef);
    const native = nativeRootOf(this.context.library, concept);
    return native === 'Date' || native === 'Time' ? { concept, native } : undefined;
  }

  /**
   * A bare number or boolean (or a non-empty list of them) for an input declared as a `Number` or `YesNo` (or a
   * refinement), as its content (`{number}`, `{yes_no}`); undefined for any other value or input.
   */
  private scalarInput(name: string, value: unknown): Stuff | undefined {
    const declared = this.declared(name);
    if (!declared) return undefined;
    const concept = this.concept(declared.conceptRef);
    const scalar = SCALAR_MEMBERS[nativeRootOf(this.context.library, concept) ?? ''];
    if (!scalar) return undefined;
    const fits = (item: unknown) => typeof item === scalar.type;
    const wrap = (item: unknown) => ({ [scalar.member]: item });
    if (fits(value)) return this.stuff(name, concept, this.content(name, concept, wrap(value)));
    if (Array.isArray(value) && value.length > 0 && value.every(fits))
      return this.stuff(name, concept, this.content(name, concept, value.map(wrap)));
    return undefined;
  }

  private temporalItem(name: string, temporal: { concept: Concept; native: string }, text: string): ItemContent {
    const item = temporalContentOf(temporal.native, text);
    if (item !== undefined) return item;
    const expected =
      temporal.native === 'Date' ? 'date or date-time (YYYY-MM-DD[THH:MM:SS[±hh:mm]])' : 'time (HH:MM:SS[±hh:mm])';
    throw new StuffFactoryError(
      `Input '${name}': '${text}' is not an ISO 8601 ${expected} for ${temporal.concept.ref}.`,
    );
  }

  private checkedItem(name: string, concept: Concept, value: unknown): ItemContent {
    if (typeof value === 'string') {
      if (!this.context.library.isTextLike(concept)) {
        throw new StuffFactoryError(
          `Input '${name}': a string content needs a text concept, but ${concept.ref} is not text-like; send an object matching its structure.`,
        );
      }
      return { text: value };
    }
    const problems = this.context.validator.completedProblems(concept, value);
    if (problems.length > 0) {
      throw new StuffFactoryError(
        `Input '${name}': the content does not match concept ${concept.ref}: ${problems.join('; ')}.`,
      );
    }
    return value as ItemContent;
  }

  private content(name: string, concept: Concept, value: unknown): StuffContent {
    if (!Array.isArray(value)) return { kind: 'item', item: this.checkedItem(name, concept, value) };
    if (value.length === 0)
      throw new StuffFactoryError(`Input '${name}': an empty list cannot be typed; send at least one item.`);
    return { kind: 'list', items: value.map((item) => this.checkedItem(name, concept, item)) };
  }

  private stuff(name: string, concept: Concept, content: StuffContent): Stuff {
    return { stuffCode: this.context.ids.next(), stuffName: name, concept, content };
  }

  private declaredConcept(name: string): Concept {
    const declared = this.declared(name);
    if (!declared) {
      throw new StuffFactoryError(
        `Input '${name}': pipe '${this.context.pipe.code}' declares no such input, so the concept of this object cannot be inferred; send {"concept": "<domain.Concept>", "content": …}.`,
      );
    }
    return this.concept(declared.conceptRef);
  }

  private fromExplicitList(name: string, entries: { concept: string; content: unknown }[]): Stuff {
    const refs = new Set(entries.map((entry) => entry.concept.replace(/\[\d*\]$/, '')));
    if (refs.size > 1)
      throw new StuffFactoryError(
        `Input '${name}': every item of a list must have the same concept (got ${[...refs].join(', ')}).`,
      );
    const concept = this.concept(entries[0]!.concept);
    const items = entries.map((entry) => this.checkedItem(name, concept, entry.content));
    return this.stuff(name, concept, { kind: 'list', items });
  }

  /**
   * The stuff of one input value, in the first form it matches (temporal string, smart scalar, text, explicit
   * `{concept, content}` or a list of them, content object typed by the declared input).
   * @param name - the input name
   * @param value - its value as sent
   * @throws StuffFactoryError naming the input and the fix; ConceptNotFoundError, ConceptAmbiguityError
   */
  bind(name: string, value: unknown): Stuff {
    const temporal = this.temporalInput(name);
    if (temporal && typeof value === 'string')
      return this.stuff(name, temporal.concept, { kind: 'item', item: this.temporalItem(name, temporal, value) });
    if (temporal && Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) {
      const items = value.map((text) => this.temporalItem(name, temporal, text));
      return this.stuff(name, temporal.concept, { kind: 'list', items });
    }
    const scalar = this.scalarInput(name, value);
    if (scalar) return scalar;
    if (typeof value === 'string')
      return this.stuff(name, this.textConceptFor(name), { kind: 'item', item: { text: value } });
    if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) {
      return this.stuff(name, this.textConceptFor(name), { kind: 'list', items: value.map((text) => ({ text })) });
    }
    if (isExplicit(value)) {
      const concept = this.concept(value.concept);
      return this.stuff(name, concept, this.content(name, concept, value.content));
    }
    if (Array.isArray(value) && value.length > 0 && value.every(isExplicit)) return this.fromExplicitList(name, value);
    if (isObject(value) || Array.isArray(value)) {
      const concept = this.declaredConcept(name);
      return this.stuff(name, concept, this.content(name, concept, value));
    }
    throw new StuffFactoryError(
      `Input '${name}': unsupported value (${value === null ? 'null' : typeof value}); send a string, a list of strings, a content object or {"concept", "content"} (a bare number or boolean only for an input declared Number or YesNo).`,
    );
  }

  /**
   * A stuff checked against the entry pipe's declared input of its name (concept compatibility and multiplicity); a
   * single item sent for a list input becomes a list of one.
   * @param stuff - a bound stuff
   * @throws StuffFactoryError when its concept or multiplicity does not fit
   */
  checkAgainstDeclaration(stuff: Stuff): Stuff {
    const declared = stuff.stuffName === null ? undefined : this.declared(stuff.stuffName);
    if (!declared) return stuff;
    const expected = this.concept(declared.conceptRef);
    if (!this.context.library.isCompatible(stuff.concept, expected)) {
      throw new StuffFactoryError(
        `Input '${declared.name}' is a ${stuff.concept.ref}, but pipe '${this.context.pipe.code}' expects ${declared.raw}.`,
      );
    }
    if (declared.multiplicity === 'single' && stuff.content.kind === 'list') {
      throw new StuffFactoryError(
        `Input '${declared.name}': pipe '${this.context.pipe.code}' expects one ${declared.raw}, got a list of ${stuff.content.items.length}.`,
      );
    }
    if (declared.multiplicity !== 'single' && stuff.content.kind === 'item') {
      return { ...stuff, content: { kind: 'list', items: [stuff.content.item] } };
    }
    if (
      typeof declared.multiplicity === 'number' &&
      stuff.content.kind === 'list' &&
      stuff.content.items.length !== declared.multiplicity
    ) {
      throw new StuffFactoryError(
        `Input '${declared.name}': pipe '${this.context.pipe.code}' expects exactly ${declared.multiplicity} items (${declared.raw}), got ${stuff.content.items.length}.`,
      );
    }
    return stuff;
  }

  /**
   * The working memory of `inputs` sent in the working-memory form `{root, aliases}`.
   * @param form - the root stuffs by name, and the aliases naming root stuffs
   * @throws StuffFactoryError for a malformed stuff or alias, or a stuff that does not fit its declared input
   */
  bindWorkingMemory(form: { root: JsonObject; aliases: JsonObject }): WorkingMemory {
    const memory = new WorkingMemory();
    for (const [name, raw] of Object.entries(form.root)) {
      if (!isObject(raw) || !('content' in raw) || raw['concept'] === undefined) {
        throw new StuffFactoryError(`inputs.root.${name}: a stuff needs "concept" and "content".`);
      }
      const conceptField = raw['concept'];
      const ref = isObject(conceptField)
        ? `${String(conceptField['domain_code'])}.${String(conceptField['code'])}`
        : String(conceptField);
      const concept = this.concept(ref);
      const rawContent = raw['content'];
      const content = isObject(rawContent) && Array.isArray(rawContent['items']) ? rawContent['items'] : rawContent;
      const stuff: Stuff = {
        stuffCode: typeof raw['stuff_code'] === 'string' ? raw['stuff_code'] : this.context.ids.next(),
        stuffName: name,
        concept,
        content: this.content(name, concept, content),
      };
      memory.addNewStuff(name, this.checkAgainstDeclaration(stuff));
    }
    for (const [alias, target] of Object.entries(form.aliases)) {
      if (typeof target !== 'string')
        throw new StuffFactoryError(`inputs.aliases.${alias}: an alias must name a root stuff.`);
      memory.setAlias(alias, target);
    }
    return memory;
  }
}
