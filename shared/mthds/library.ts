/**
 * The library: every concept and pipe of the bundles of one request, with namespace resolution (LANGUAGE.md §5,
 * spec §2.3), refinement (LANGUAGE.md §2.4) and content schemas. Only the loader builds one, from validated bundles.
 */
import { ConceptAmbiguityError, ConceptNotFoundError, PipeNotFoundError } from '../errors/index.js';
import type { BundleBlueprint } from './blueprint.js';
import type { Concept, Domain, Pipe } from './concept.js';
import { buildContentSchema } from './content-schema.js';
import { NATIVE_DOMAIN } from './natives.js';
import { parseConceptRef, parsePipeRef, stripMultiplicity } from './references.js';

/** A bundle of the library, as submitted. */
export interface LoadedBundle {
  blueprint: BundleBlueprint;
  source: string | null;
  content: string;
}

const TEXT_REF = 'native.Text';
const ANYTHING_REF = 'native.Anything';

/** The validated library. */
export class Library {
  constructor(
    /** Bundles in submitted order. */
    readonly bundles: readonly LoadedBundle[],
    /** Every concept by ref, natives included. */
    readonly concepts: ReadonlyMap<string, Concept>,
    /** Every pipe by ref. */
    readonly pipes: ReadonlyMap<string, Pipe>,
    readonly domains: ReadonlyMap<string, Domain>,
  ) {}

  /**
   * Look a concept up without throwing.
   * @param ref - concept ref (multiplicity suffix allowed)
   * @param fromDomain - the domain the reference is written in
   * @returns the concept, `ambiguous` candidates, or undefined
   */
  findConcept(ref: string, fromDomain?: string): Concept | { ambiguous: Concept[] } | undefined {
    const parts = parseConceptRef(stripMultiplicity(ref));
    if (!parts || parts.packageRef !== undefined) return undefined;
    if (parts.domain !== undefined) return this.concepts.get(`${parts.domain}.${parts.code}`);
    const native = this.concepts.get(`${NATIVE_DOMAIN}.${parts.code}`);
    if (native) return native;
    if (fromDomain !== undefined) {
      const local = this.concepts.get(`${fromDomain}.${parts.code}`);
      if (local) return local;
    }
    const candidates = [...this.concepts.values()].filter((concept) => concept.code === parts.code);
    if (candidates.length > 1) return { ambiguous: candidates };
    return candidates[0];
  }

  /**
   * Resolve a concept reference (spec §2.3 naming rules): a qualified name in its domain; a bare name among the
   * natives, then in `fromDomain`, then in the single loaded domain that declares it.
   * @param ref - `Code`, `domain.Code`, with or without `[]` / `[N]`
   * @param fromDomain - the domain the reference is written in
   * @throws ConceptAmbiguityError (bare name in several domains), ConceptNotFoundError (422)
   */
  resolveConcept(ref: string, fromDomain?: string): Concept {
    const found = this.findConcept(ref, fromDomain);
    if (found && 'ambiguous' in found) {
      throw new ConceptAmbiguityError(
        `Concept '${ref}' is declared in several domains (${found.ambiguous.map((concept) => concept.ref).join(', ')}); write it as domain.Concept.`,
      );
    }
    if (!found) {
      const known = [...this.concepts.values()].filter((concept) => !concept.isNative).map((concept) => concept.ref);
      throw new ConceptNotFoundError(
        `Concept '${ref}' is not declared and is not native (declared concepts: ${known.join(', ') || 'none'}).`,
      );
    }
    return found;
  }

  /**
   * Look a pipe up without throwing: qualified in its domain; bare in `fromDomain`, then the single pipe of that code
   * across the library (the package-wide fallback published bundles rely on, LANGUAGE.md §5.6).
   * @param ref - pipe ref
   * @param fromDomain - the domain the reference is written in
   */
  findPipe(ref: string, fromDomain?: string): Pipe | undefined {
    const parts = parsePipeRef(ref);
    if (!parts || parts.packageRef !== undefined) return undefined;
    if (parts.domain !== undefined) return this.pipes.get(`${parts.domain}.${parts.code}`);
    if (fromDomain !== undefined) {
      const local = this.pipes.get(`${fromDomain}.${parts.code}`);
      if (local) return local;
    }
    const candidates = [...this.pipes.values()].filter((pipe) => pipe.code === parts.code);
    return candidates.length === 1 ? candidates[0] : undefined;
  }

  /**
   * Resolve a pipe reference.
   * @throws PipeNotFoundError (422) listing the pipes of the library
   */
  resolvePipe(ref: string, fromDomain?: string): Pipe {
    const pipe = this.findPipe(ref, fromDomain);
    if (!pipe) {
      const known = [...this.pipes.values()].map((candidate) => candidate.ref).sort();
      throw new PipeNotFoundError(`Pipe '${ref}' is not in the library (pipes: ${known.join(', ') || 'none'}).`);
    }
    return pipe;
  }

  /** The `main_pipe` of the first bundle declaring one. */
  mainPipe(): Pipe | undefined {
    const bundle = this.bundles.find((candidate) => candidate.blueprint.main_pipe !== undefined);
    return bundle ? this.pipes.get(`${bundle.blueprint.domain}.${bundle.blueprint.main_pipe}`) : undefined;
  }

  /**
   * The refinement chain of a concept, itself first.
   * @param concept - any concept of the library
   */
  ancestry(concept: Concept): Concept[] {
    const chain: Concept[] = [];
    let current: Concept | undefined = concept;
    while (current && !chain.includes(current)) {
      chain.push(current);
      current = current.refines === null ? undefined : this.concepts.get(current.refines);
    }
    return chain;
  }

  /**
   * Whether content of `actual` may be used where `expected` is declared: equal, `expected` is `Anything`, or an
   * ancestor of `actual` (LANGUAGE.md §2.4).
   */
  isCompatible(actual: Concept, expected: Concept): boolean {
    if (expected.ref === ANYTHING_REF) return true;
    return this.ancestry(actual).some((concept) => concept.ref === expected.ref);
  }

  /** Text, a concept refining Text, or a description-only concept (its content is a text). */
  isTextLike(concept: Concept): boolean {
    const chain = this.ancestry(concept);
    if (chain.some((ancestor) => ancestor.ref === TEXT_REF || ancestor.ref === 'native.ImgGenPrompt')) return true;
    const root = chain[chain.length - 1]!;
    return !root.isNative && root.structure === null && root.refines === null;
  }

  /**
   * JSON schema (draft 2020-12, self-contained) of one content item of a concept.
   * @param concept - any concept of the library
   * @see LANGUAGE.md §2.2 mapping, RUNTIME.md §7.2
   */
  contentSchema(concept: Concept): Record<string, unknown> {
    return buildContentSchema(this, concept);
  }
}
