/**
 * Where intent hints are written (docs/concepts.md#hints): a concept's `hints`, a structure field's, and an
 * expanded input slot's (`name = { concept = "X?", hints = {…} }`, read from the bundle text, as the parsed blueprint
 * keeps only the slot's concept spec). Each site is classified by the value it holds, for the applicability of an
 * `intent` word: text-valued (a concept refining `native.Text` or description-only, a `text` or enum field, a slot of
 * such a concept), number-valued (a concept refining `native.Number`, an `integer` or `number` field), or other (a
 * list slot among them). Hints are non-normative: the hint rules only warn.
 * @see docs/concepts.md#hints
 */

import type { ValidationErrorItem } from '../../../errors/index.js';
import type { Pipe } from '../../library/concept.js';
import type { LoadedBundle } from '../../library/library.js';
import type { MthdsLibrary } from '../../library/mthds-library.js';
import { parseToml } from '../../parse/parse-toml.js';
import { splitPresence } from '../../references.js';
import type { Rule, RuleContext } from '../rule.js';
import { conceptItem, pipeItem } from '../rule-item.js';

/** What a hinted site holds. */
export type HintSiteKind = 'text' | 'number' | 'other';

/** The one hint key and the intent words of the standard, by the kind of site each applies to. */
export const INTENT_WORDS: Readonly<Record<string, HintSiteKind>> = {
  prose: 'text',
  label: 'text',
  rating: 'number',
  quantity: 'number',
};

/** One `hints` table as written: on a concept (and one of its structure fields), or on a pipe's input slot. */
export interface HintSite {
  bundle: LoadedBundle;
  /** The concept code, for a concept's or a field's hints. */
  concept?: string;
  /** The structure field, for a field's hints. */
  field?: string;
  /** The pipe and input name, for an expanded input slot's hints. */
  slot?: { pipe: Pipe; input: string };
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

function conceptSites(bundle: LoadedBundle, library: MthdsLibrary): HintSite[] {
  return Object.entries(bundle.blueprint.concept).flatMap(([concept, table]): HintSite[] => {
    if (typeof table === 'string') return [];
    const sites: HintSite[] = [];
    if (table.hints)
      sites.push({ bundle, concept, hints: table.hints, kind: conceptKind(library, bundle.blueprint.domain, concept) });
    if (typeof table.structure === 'object')
      for (const [field, spec] of Object.entries(table.structure)) {
        if (typeof spec === 'string' || !spec.hints) continue;
        const kind = spec.type === undefined ? 'text' : (FIELD_KINDS[spec.type] ?? 'other');
        sites.push({ bundle, concept, field, hints: spec.hints, kind });
      }
    return sites;
  });
}

/** A plain object (a TOML table), or undefined. */
function table(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The slot sites of each bundle text, read once per bundle. */
const SLOT_SITES = new WeakMap<LoadedBundle, HintSite[]>();

function slotSites(bundle: LoadedBundle, context: RuleContext): HintSite[] {
  const cached = SLOT_SITES.get(bundle);
  if (cached) return cached;
  const { library } = context;
  const data = context.tables?.get(bundle) ?? parseToml(bundle.content, bundle.source);
  const pipes = table(data['pipe']) ?? {};
  const domain = bundle.blueprint.domain;
  const sites: HintSite[] = [];
  for (const [code, pipeTable] of Object.entries(pipes)) {
    const inputs = table(table(pipeTable)?.['inputs']);
    if (!inputs) continue;
    for (const [input, slot] of Object.entries(inputs)) {
      const hints = table(table(slot)?.['hints']);
      const spec = table(slot)?.['concept'];
      if (!hints || typeof spec !== 'string') continue;
      const pipe = library.findPipe(code, domain);
      if (!pipe) continue;
      const { ref } = splitPresence(spec);
      const single = !ref.endsWith(']') || ref.endsWith('[1]');
      const kind = single ? conceptKind(library, domain, ref.replace(/\[\d*\]$/, '')) : 'other';
      sites.push({ bundle, slot: { pipe, input }, hints: hints as Record<string, string>, kind });
    }
  }
  SLOT_SITES.set(bundle, sites);
  return sites;
}

/**
 * Every `hints` table of the bundles: per bundle, concepts then their fields, then expanded input slots, in
 * declaration order.
 * @param context - the bundles, the library (for the refinement chains of hinted concepts) and the TOML data the
 *   bundles were parsed from (an input slot's `hints` is read from it, else from the bundle's text)
 */
export function hintSites(context: RuleContext): HintSite[] {
  return context.bundles.flatMap((bundle) => [...conceptSites(bundle, context.library), ...slotSites(bundle, context)]);
}

/**
 * A warning about one hints table.
 * @param rule - the emitting rule
 * @param site - the site
 * @param key - the hint key the warning is about
 * @param message - from MESSAGES
 */
export function hintItem(rule: Rule, site: HintSite, key: string, message: string): ValidationErrorItem {
  if (site.slot)
    return pipeItem(rule, site.slot.pipe, message, {
      field_path: `pipe.${site.slot.pipe.code}.inputs.${site.slot.input}.hints.${key}`,
      field_name: key,
    });
  const where =
    site.field === undefined ? `concept.${site.concept}` : `concept.${site.concept}.structure.${site.field}`;
  return conceptItem(rule, site.bundle, site.concept ?? '', message, {
    field_path: `${where}.hints.${key}`,
    field_name: key,
  });
}

/**
 * Where a site is, in words.
 * @param site - the site
 */
export function siteName(site: HintSite): string {
  if (site.slot) return `Pipe '${site.slot.pipe.code}', input '${site.slot.input}'`;
  return site.field === undefined ? `Concept '${site.concept}'` : `Concept '${site.concept}', field '${site.field}'`;
}
