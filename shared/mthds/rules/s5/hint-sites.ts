/**
 * Where intent hints are written (LANGUAGE-DELTA §7 "hints tables"): a concept's `hints`, and a structure field's.
 * Each site is classified by the value it holds, for the applicability of an `intent` word: text-valued (a concept
 * refining `native.Text` or description-only, a `text` or enum field), number-valued (a concept refining
 * `native.Number`, an `integer` or `number` field), or other. Hints are non-normative: the hint rules only warn.
 * @see LANGUAGE-DELTA.md §7
 */

import type { ValidationErrorItem } from '../../../errors/index.js';
import type { LoadedBundle, MthdsLibrary } from '../../library/library.js';
import type { Rule } from '../rule.js';
import { conceptItem } from '../rule-item.js';

/** What a hinted site holds. */
export type HintSiteKind = 'text' | 'number' | 'other';

/** The one hint key and the intent words of the standard, by the kind of site each applies to. */
export const INTENT_WORDS: Readonly<Record<string, HintSiteKind>> = {
  prose: 'text',
  label: 'text',
  rating: 'number',
  quantity: 'number',
};

/** One `hints` table as written. */
export interface HintSite {
  bundle: LoadedBundle;
  concept: string;
  /** The structure field, for a field's hints. */
  field?: string;
  hints: Readonly<Record<string, string>>;
  kind: HintSiteKind;
}

const FIELD_KINDS: Readonly<Record<string, HintSiteKind>> = { text: 'text', integer: 'number', number: 'number' };

function conceptKind(library: MthdsLibrary, domain: string, code: string): HintSiteKind {
  const concept = library.findConcept(code, domain);
  if (!concept) return 'other';
  if (library.isTextLike(concept)) return 'text';
  return library.ancestry(concept).some((ancestor) => ancestor.ref === 'native.Number') ? 'number' : 'other';
}

/**
 * Every `hints` table of the bundles, concepts first then their fields, in declaration order.
 * @param bundles - the bundles
 * @param library - the library, for the refinement chains of hinted concepts
 */
export function hintSites(bundles: readonly LoadedBundle[], library: MthdsLibrary): HintSite[] {
  return bundles.flatMap((bundle) =>
    Object.entries(bundle.blueprint.concept).flatMap(([concept, table]): HintSite[] => {
      if (typeof table === 'string') return [];
      const sites: HintSite[] = [];
      if (table.hints)
        sites.push({
          bundle,
          concept,
          hints: table.hints,
          kind: conceptKind(library, bundle.blueprint.domain, concept),
        });
      if (typeof table.structure === 'object')
        for (const [field, spec] of Object.entries(table.structure)) {
          if (typeof spec === 'string' || !spec.hints) continue;
          const kind = spec.type === undefined ? 'text' : (FIELD_KINDS[spec.type] ?? 'other');
          sites.push({ bundle, concept, field, hints: spec.hints, kind });
        }
      return sites;
    }),
  );
}

/**
 * A warning about one hints table.
 * @param rule - the emitting rule
 * @param site - the site
 * @param key - the hint key the warning is about
 * @param message - from MESSAGES
 */
export function hintItem(rule: Rule, site: HintSite, key: string, message: string): ValidationErrorItem {
  const where =
    site.field === undefined ? `concept.${site.concept}` : `concept.${site.concept}.structure.${site.field}`;
  return conceptItem(rule, site.bundle, site.concept, message, {
    field_path: `${where}.hints.${key}`,
    field_name: key,
  });
}

/**
 * Where a site is, in words.
 * @param site - the site
 */
export function siteName(site: HintSite): string {
  return site.field === undefined ? `Concept '${site.concept}'` : `Concept '${site.concept}', field '${site.field}'`;
}
