/**
 * The library's implementation ({@link MthdsLibrary}): the lookups of concept and pipe references, memoized, with the
 * namespace resolution of docs/namespaces.md (spec §2.3), and refinement
 * (docs/concepts.md#refinement-and-compatibility).
 * The contract it implements, and the brand only the loader's libraries carry, are in `library.ts`.
 */
import { ConceptAmbiguityError, ConceptNotFoundError, PipeNotFoundError } from '../../errors/index.js';
import { MESSAGES } from '../messages.js';
import { parseConceptRef, parsePipeRef, stripMultiplicity } from '../references.js';
import type { Concept, Domain, Pipe } from './concept.js';
import { buildContentSchema } from './content-schema.js';
import { LIBRARY_BRAND, type Library, type LoadedBundle } from './library.js';
import { NATIVE_DOMAIN } from './natives.js';

const TEXT_LIKE_NATIVES = new Set(['native.Text', 'native.ImgGenPrompt']);
const ANYTHING_REF = 'native.Anything';

/** The outcome of a lookup that does not throw. */
export type Lookup<T> = { found: T } | { ambiguous: T[] } | { missing: true };

/** Items grouped by bare code, each group in iteration order (`Map.groupBy` needs Node 21). */
function byCode<T extends { code: string }>(items: Iterable<T>): ReadonlyMap<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.code);
    if (group) group.push(item);
    else groups.set(item.code, [item]);
  }
  return groups;
}

/**
 * A lookup's memoized answer, in a memo by domain ('' for none) then by ref as written, made on first ask.
 * @param memo - the library's memo of one kind of lookup (filled here)
 * @param fromDomain - the domain the reference is written in
 * @param ref - the reference as written
 * @param lookUp - finds the answer the first time
 */
function memoized<T>(
  memo: Map<string, Map<string, Lookup<T>>>,
  fromDomain: string | undefined,
  ref: string,
  lookUp: () => Lookup<T>,
): Lookup<T> {
  let byRef = memo.get(fromDomain ?? '');
  if (!byRef) {
    byRef = new Map();
    memo.set(fromDomain ?? '', byRef);
  }
  let lookup = byRef.get(ref);
  if (!lookup) {
    lookup = lookUp();
    byRef.set(ref, lookup);
  }
  return lookup;
}

/**
 * The library implementation. The loader builds it before the rules run (references kept as written when they do not
 * resolve) and hands it out typed as {@link Library} once the rules pass.
 */
export class MthdsLibrary implements Library {
  readonly [LIBRARY_BRAND] = true as const;

  /** Concepts and pipes by bare code, in declaration order, built on the first bare lookup another domain answers. */
  private conceptsByCode: ReadonlyMap<string, Concept[]> | undefined;
  private pipesByCode: ReadonlyMap<string, Pipe[]> | undefined;
  /**
   * Lookups answered, by the domain the reference was written in ('' for none) then by ref as written: the rules, the
   * dry run and the report look the same refs up once per pipe or more, and the library does not change.
   */
  private readonly conceptLookups = new Map<string, Map<string, Lookup<Concept>>>();
  private readonly pipeLookups = new Map<string, Map<string, Lookup<Pipe>>>();

  constructor(
    readonly bundles: readonly LoadedBundle[],
    readonly concepts: ReadonlyMap<string, Concept>,
    readonly pipes: ReadonlyMap<string, Pipe>,
    readonly domains: ReadonlyMap<string, Domain>,
  ) {}

  /**
   * Look a concept up without throwing (the rules' view of {@link Library.resolveConcept}).
   * @param ref - a concept ref, multiplicity allowed
   * @param fromDomain - the domain the reference is written in
   * @returns the concept, the candidates of an ambiguous bare code, or `missing` (also for a malformed ref)
   */
  lookupConcept(ref: string, fromDomain?: string): Lookup<Concept> {
    return memoized(this.conceptLookups, fromDomain, ref, () => this.lookupConceptOnce(ref, fromDomain));
  }

  /** {@link lookupConcept}, without its memo. */
  private lookupConceptOnce(ref: string, fromDomain: string | undefined): Lookup<Concept> {
    const parts = parseConceptRef(stripMultiplicity(ref));
    if (!parts) return { missing: true };
    if (parts.domain !== undefined) {
      const concept = this.concepts.get(`${parts.domain}.${parts.code}`);
      return concept ? { found: concept } : { missing: true };
    }
    if (parts.packageRef !== undefined) return { missing: true };
    const native = this.concepts.get(`${NATIVE_DOMAIN}.${parts.code}`);
    if (native) return { found: native };
    const local = fromDomain === undefined ? undefined : this.concepts.get(`${fromDomain}.${parts.code}`);
    if (local) return { found: local };
    this.conceptsByCode ??= byCode(this.concepts.values());
    const candidates = this.conceptsByCode.get(parts.code) ?? [];
    if (candidates.length > 1) return { ambiguous: candidates };
    return candidates[0] ? { found: candidates[0] } : { missing: true };
  }

  /**
   * Look a concept up without throwing; undefined when it is missing or ambiguous.
   * @param ref - a concept ref
   * @param fromDomain - the domain the reference is written in
   */
  findConcept(ref: string, fromDomain?: string): Concept | undefined {
    const lookup = this.lookupConcept(ref, fromDomain);
    return 'found' in lookup ? lookup.found : undefined;
  }

  resolveConcept(ref: string, fromDomain?: string): Concept {
    const lookup = this.lookupConcept(ref, fromDomain);
    if ('found' in lookup) return lookup.found;
    if ('ambiguous' in lookup)
      throw new ConceptAmbiguityError(
        MESSAGES.resolve_concept_ambiguous({ ref, candidates: lookup.ambiguous.map((concept) => concept.ref) }),
      );
    const parts = parseConceptRef(stripMultiplicity(ref));
    if (!parts) throw new ConceptNotFoundError(MESSAGES.resolve_concept_malformed({ ref }));
    const declared = [...this.concepts.values()].filter((concept) => !concept.isNative).map((concept) => concept.ref);
    const near = [...this.concepts.values()].find((concept) => concept.code.toLowerCase() === parts.code.toLowerCase());
    throw new ConceptNotFoundError(
      MESSAGES.resolve_concept_missing({
        ref: stripMultiplicity(ref),
        declared,
        near: near && (near.isNative ? near.code : near.ref),
      }),
    );
  }

  /**
   * Look a pipe up without throwing (the rules' view of {@link Library.resolvePipe}).
   * @param ref - a pipe ref
   * @param fromDomain - the domain the reference is written in
   * @returns the pipe, the candidates of a bare code declared by several other domains, or `missing`
   */
  lookupPipe(ref: string, fromDomain?: string): Lookup<Pipe> {
    return memoized(this.pipeLookups, fromDomain, ref, () => this.lookupPipeOnce(ref, fromDomain));
  }

  /** {@link lookupPipe}, without its memo. */
  private lookupPipeOnce(ref: string, fromDomain: string | undefined): Lookup<Pipe> {
    const parts = parsePipeRef(ref);
    if (!parts) return { missing: true };
    if (parts.domain !== undefined) {
      const pipe = this.pipes.get(`${parts.domain}.${parts.code}`);
      return pipe ? { found: pipe } : { missing: true };
    }
    if (parts.packageRef !== undefined) return { missing: true };
    const local = fromDomain === undefined ? undefined : this.pipes.get(`${fromDomain}.${parts.code}`);
    if (local) return { found: local };
    this.pipesByCode ??= byCode(this.pipes.values());
    const candidates = this.pipesByCode.get(parts.code) ?? [];
    if (candidates.length > 1) return { ambiguous: candidates };
    return candidates[0] ? { found: candidates[0] } : { missing: true };
  }

  /**
   * Look a pipe up without throwing; undefined when it is missing or ambiguous.
   * @param ref - a pipe ref
   * @param fromDomain - the domain the reference is written in
   */
  findPipe(ref: string, fromDomain?: string): Pipe | undefined {
    const lookup = this.lookupPipe(ref, fromDomain);
    return 'found' in lookup ? lookup.found : undefined;
  }

  resolvePipe(ref: string, fromDomain?: string): Pipe {
    const lookup = this.lookupPipe(ref, fromDomain);
    if ('found' in lookup) return lookup.found;
    if ('ambiguous' in lookup)
      throw new PipeNotFoundError(
        MESSAGES.resolve_pipe_ambiguous({ ref, candidates: lookup.ambiguous.map((pipe) => pipe.ref) }),
      );
    throw new PipeNotFoundError(MESSAGES.resolve_pipe_missing({ ref, pipes: [...this.pipes.keys()].sort() }));
  }

  mainPipe(): Pipe | undefined {
    const bundle = this.bundles.find((candidate) => candidate.blueprint.main_pipe !== undefined);
    return bundle ? this.pipes.get(`${bundle.blueprint.domain}.${bundle.blueprint.main_pipe}`) : undefined;
  }

  /**
   * The refinement chain of a concept, itself first, stopping before a loop or an unresolved parent.
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

  isCompatible(actual: Concept, expected: Concept): boolean {
    if (expected.ref === ANYTHING_REF) return true;
    return this.ancestry(actual).some((concept) => concept.ref === expected.ref);
  }

  isTextLike(concept: Concept): boolean {
    const chain = this.ancestry(concept);
    if (chain.some((ancestor) => TEXT_LIKE_NATIVES.has(ancestor.ref))) return true;
    const root = chain[chain.length - 1];
    return root !== undefined && !root.isNative && root.structure === null && root.refines === null;
  }

  contentSchema(concept: Concept): Record<string, unknown> {
    return buildContentSchema(this, concept);
  }
}
