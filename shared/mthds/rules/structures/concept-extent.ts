/**
 * S3: a concept's structure nests at most {@link MAX_CONCEPT_DEPTH} concepts deep and expands to at most
 * {@link MAX_CONCEPT_FIELDS} fields (library/concept-extent.ts). A structure rule, so it holds before any library rule
 * and before anything walks a structure: content schemas and their validators, mock values, forms, inputs templates
 * and typed projections recurse once per level and expand each nested concept where it is used.
 *
 * One item per offending concept that no other offending concept reaches (the head of a chain too deep, not each of
 * its links), the deepest or largest first.
 * @see docs/limits.md#concept-structures
 */
import type { ValidationErrorItem } from '../../../errors/index.js';
import type { Concept } from '../../library/concept.js';
import {
  type ConceptExtent,
  conceptExtents,
  MAX_CONCEPT_DEPTH,
  MAX_CONCEPT_FIELDS,
} from '../../library/concept-extent.js';
import { MESSAGES } from '../../messages.js';
import { declaringBundle } from '../references/declaring-bundle.js';
import type { Rule, RuleContext } from '../rule.js';
import { conceptItem } from '../rule-item.js';

/** Concepts of a too-deep chain named in the message before `…`. */
const QUOTED_CHAIN = 4;

function overLimit(extent: ConceptExtent): boolean {
  return extent.depth > MAX_CONCEPT_DEPTH || extent.fields > MAX_CONCEPT_FIELDS;
}

function chainOf(ref: string, extents: ReadonlyMap<string, ConceptExtent>): string[] {
  const chain = [ref];
  let next = extents.get(ref)?.deepest?.ref;
  while (next !== undefined && chain.length < QUOTED_CHAIN) {
    chain.push(next);
    next = extents.get(next)?.deepest?.ref;
  }
  return chain;
}

/** Mark every concept a concept reaches through its fields and `refines` (iteratively). */
function cover(from: Concept, context: RuleContext, covered: Set<string>): void {
  const pending = [from];
  while (pending.length > 0) {
    const concept = pending.pop()!;
    if (covered.has(concept.ref)) continue;
    covered.add(concept.ref);
    const refs = Object.values(concept.structure ?? {}).flatMap((field) =>
      [field.concept_ref, field.item_concept_ref].filter((ref): ref is string => ref !== undefined),
    );
    if (concept.refines !== null) refs.push(concept.refines);
    for (const ref of refs) {
      const next = context.library.concepts.get(ref);
      if (next && !next.isNative && !covered.has(next.ref)) pending.push(next);
    }
  }
}

function itemFor(
  concept: Concept,
  extent: ConceptExtent,
  context: RuleContext,
  extents: ReadonlyMap<string, ConceptExtent>,
): ValidationErrorItem[] {
  const bundle = declaringBundle(context.bundles, concept);
  if (!bundle) return [];
  if (extent.depth > MAX_CONCEPT_DEPTH) {
    const key = extent.deepest?.key ?? 'structure';
    return [
      conceptItem(
        conceptExtent,
        bundle,
        concept.code,
        MESSAGES.concept_too_deep({
          concept: concept.code,
          depth: extent.depth,
          chain: chainOf(concept.ref, extents),
          max: MAX_CONCEPT_DEPTH,
        }),
        { field_path: `concept.${concept.code}.${key}`, field_name: key.split('.').at(-1) ?? key },
      ),
    ];
  }
  return [
    conceptItem(
      conceptExtent,
      bundle,
      concept.code,
      MESSAGES.concept_too_many_fields({ concept: concept.code, fields: extent.fields, max: MAX_CONCEPT_FIELDS }),
      { field_path: `concept.${concept.code}.structure`, field_name: 'structure' },
    ),
  ];
}

/** S3 concept extent (`concept_structure_too_large`). */
export const conceptExtent: Rule = {
  id: 'S3-concept-extent',
  stage: 'S3',
  severity: 'error',
  category: 'blueprint_validation',
  error_type: 'concept_structure_too_large',
  see: 'docs/rules.md#s3-concept-extent',
  check: (context) => {
    const extents = conceptExtents(context.library);
    const offending = [...extents]
      .filter(([, extent]) => overLimit(extent))
      .sort(([, a], [, b]) => b.depth - a.depth || b.fields - a.fields);
    const covered = new Set<string>();
    return offending.flatMap(([ref, extent]) => {
      const concept = context.library.concepts.get(ref);
      if (!concept || covered.has(ref)) return [];
      cover(concept, context, covered);
      return itemFor(concept, extent, context, extents);
    });
  },
};
