/**
 * The library: every concept and pipe of the bundles of one request, with namespace resolution (docs/namespaces.md,
 * spec §2.3), refinement (docs/concepts.md#refinement-and-compatibility) and content schemas.
 *
 * Glossary: a *qualified ref* is `domain.Code` (concept) or `domain.pipe_code` (pipe); natives live in domain `native`.
 * A *cross-package ref* has `<alias or address>->` in front; this runtime loads bundles, not packages, so it resolves
 * the
 * part after `->` among the loaded bundles when its domain is there, and leaves it unresolved otherwise
 * (docs/language.md
 * §5.6; the rule `S5-package-refs` refuses a pipe reference into a package that is not loaded).
 *
 * Only {@link loadLibrary} hands out a {@link Library}: the interface carries a brand symbol that the public barrel
 * does not export, so no caller can pass an unchecked object where a validated library is expected
 * (CONTRIBUTING.md#6-validated-values-have-their-own-type).
 *
 * This module holds the contract ({@link Library}); its implementation, with the lookups, is `mthds-library.ts`.
 */
import type { BundleBlueprint } from '../parse/blueprint.js';
import type { Concept, Domain, Pipe } from './concept.js';

/** A bundle of the library, as submitted. */
export interface LoadedBundle {
  blueprint: BundleBlueprint;
  source: string | null;
  content: string;
}

/** The brand of a library built by the loader (not exported by the barrel). */
export const LIBRARY_BRAND: unique symbol = Symbol('mthds.Library');

/**
 * A validated library (the public contract; see the module comment).
 * @see docs/concepts.md#refinement-and-compatibility, docs/namespaces.md; spec §2.3
 */
export interface Library {
  readonly [LIBRARY_BRAND]: true;
  /** The bundles, in submitted order. */
  readonly bundles: readonly LoadedBundle[];
  /** Every loaded concept plus the natives (`natives.ts`), by qualified ref. */
  readonly concepts: ReadonlyMap<string, Concept>;
  /** Every pipe by qualified ref, in declaration order. */
  readonly pipes: ReadonlyMap<string, Pipe>;
  /** Every domain by code (bundles sharing a domain merge; the first bundle's header facts win). */
  readonly domains: ReadonlyMap<string, Domain>;
  /**
   * Resolve a concept reference. The multiplicity suffix (`[]`, `[N]`) is ignored. A qualified ref names its domain
   * (`native.Text` is the native); a bare code resolves among the natives first, then in `fromDomain`, then in the one
   * loaded domain that declares it (spec §2.3 rules 2–4).
   * @param ref - `Code`, `domain.Code` or `<package>->domain.Code`, optionally with `[]` / `[N]`
   * @param fromDomain - the domain the reference is written in, when there is one
   * @throws ConceptAmbiguityError when a bare code is declared by several loaded domains (the message lists the
   *   qualified refs to write instead)
   * @throws ConceptNotFoundError when nothing matches or the ref is malformed (the message lists the declared concepts
   *   and a near match when there is one)
   */
  resolveConcept(ref: string, fromDomain?: string): Concept;
  /**
   * Resolve a pipe reference (docs/namespaces.md#resolution-order): a qualified ref names its domain; a bare code
   * resolves in `fromDomain`,
   * then as the one pipe of that code in the library (the package-wide fallback of
   * docs/namespaces.md#cross-package-references).
   * @param ref - `pipe_code`, `domain.pipe_code` or `<package>->domain.pipe_code`
   * @param fromDomain - the domain the reference is written in, when there is one
   * @throws PipeNotFoundError when nothing (or more than one pipe) matches; the message says what to write instead
   */
  resolvePipe(ref: string, fromDomain?: string): Pipe;
  /**
   * {@link Library.resolveConcept} without throwing.
   * @returns the concept, or undefined when the ref is malformed, ambiguous or names nothing loaded
   */
  findConcept(ref: string, fromDomain?: string): Concept | undefined;
  /**
   * {@link Library.resolvePipe} without throwing.
   * @returns the pipe, or undefined when the ref is malformed, ambiguous or names nothing loaded (e.g. a cross-package
   *   reference to a package that is not loaded)
   */
  findPipe(ref: string, fromDomain?: string): Pipe | undefined;
  /** The pipe named by `main_pipe` in the first bundle that declares one, or undefined. */
  mainPipe(): Pipe | undefined;
  /**
   * Whether content of concept `actual` may be used where `expected` is declared: the same concept, `expected` is
   * `Anything`, or `expected` is an ancestor of `actual` through `refines`
   * (docs/concepts.md#refinement-and-compatibility).
   */
  isCompatible(actual: Concept, expected: Concept): boolean;
  /**
   * The refinement chain of a concept, itself first, stopping before a loop or an unresolved parent.
   * @param concept - any concept of the library
   */
  ancestry(concept: Concept): Concept[];
  /**
   * Whether a concept's content is a text: Text or ImgGenPrompt, a concept refining one of them (transitively), or a
   * description-only concept (no structure, no refines) and its refinements.
   */
  isTextLike(concept: Concept): boolean;
  /**
   * The self-contained JSON schema (draft 2020-12, nested concepts under `$defs`) of ONE content item of a concept.
   * @see docs/concepts.md#structure-fields (mapping), §2.3 and docs/runtime.md#native-contents (natives)
   */
  contentSchema(concept: Concept): Record<string, unknown>;
}
