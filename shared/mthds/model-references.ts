/**
 * Model references as pipes write them in `model` (docs/inference.md#from-a-pipes-model-to-a-call): `$name` or
 * `preset:name` (a preset),
 * `@name` or `alias:name` (an alias), `~name` or `waterfall:name` (a waterfall), anything else (or `handle:name`) a
 * model handle. The categories a pipe type's `model` is read in, and the names a model deck knows per category (the
 * data the static check of `model` fields compares against; the deck itself lives with the inference adapters).
 *
 * @see docs/inference.md#the-model-deck, docs/inference.md#from-a-pipes-model-to-a-call,
 * docs/language.md#model-references-and-the-deck
 */
import { distance } from 'fastest-levenshtein';

/**
 * The model categories of the deck (docs/inference.md#the-model-deck), and the judgment models of PipeJudge
 * (docs/language.md#pipejudge).
 */
export type ModelCategoryName = 'llm' | 'img_gen' | 'extract' | 'search' | 'judgment';

/** What a reference names. */
export type ModelReferenceKind = 'preset' | 'alias' | 'waterfall' | 'handle';

/** A parsed reference. */
export interface ParsedModelReference {
  kind: ModelReferenceKind;
  /** The name without its sigil or prefix, trimmed. */
  name: string;
}

/** The names one category of a deck knows, without sigils. */
export interface CategoryReferences {
  presets: readonly string[];
  aliases: readonly string[];
  waterfalls: readonly string[];
  /** Whether the category has a default model (`choice_default`, or the LLM `choice_defaults`). */
  hasDefault?: boolean;
  /**
   * What the model a reference resolves to reads, when its spec says (judgment category, for PipeJudge's input
   * capability; docs/language.md#pipejudge): keyed `<kind>:<name>` (`alias:default-judgment`, `preset:x`,
   * `waterfall:x`,
   * `handle:gpt-4o`) and `default` for the category's default; the resolved handle (for a waterfall, its first model
   * that can be served) and its spec `inputs`.
   */
  inputs?: Readonly<Record<string, ModelInputs>>;
}

/** The handle a reference resolves to and what that model reads (`text`, `images`, `pdf`). */
export interface ModelInputs {
  model: string;
  inputs: readonly string[];
}

/** The names a model deck knows, per category: plain data, so it crosses thread boundaries. */
export type ModelReferenceCatalog = Readonly<Record<ModelCategoryName, CategoryReferences>>;

const SIGILS: Readonly<Record<string, ModelReferenceKind>> = { $: 'preset', '@': 'alias', '~': 'waterfall' };
const PREFIX = /^(preset|alias|waterfall|handle):(.*)$/s;

/**
 * Parse a reference.
 * @param reference - the `model` string as written
 * @returns its kind and name (an empty name when the reference is blank)
 * @example parseModelReference('preset:vision') // { kind: 'preset', name: 'vision' }
 */
export function parseModelReference(reference: string): ParsedModelReference {
  const trimmed = reference.trim();
  const sigil = SIGILS[trimmed.charAt(0)];
  if (sigil !== undefined) return { kind: sigil, name: trimmed.slice(1).trim() };
  const prefixed = PREFIX.exec(trimmed);
  if (prefixed) return { kind: prefixed[1] as ModelReferenceKind, name: prefixed[2]!.trim() };
  return { kind: 'handle', name: trimmed };
}

/**
 * The names of a catalog's category a kind of reference is looked up in.
 * @param references - one category of a catalog
 * @param kind - preset, alias or waterfall
 */
export function namesOfKind(
  references: CategoryReferences,
  kind: Exclude<ModelReferenceKind, 'handle'>,
): readonly string[] {
  if (kind === 'preset') return references.presets;
  return kind === 'alias' ? references.aliases : references.waterfalls;
}

/** Most suggestions a message lists. */
const MAX_SUGGESTIONS = 3;

/**
 * The known names closest to an unknown one (edit distance at most a third of the longer name, and at least 2), or
 * the known names that contain it or that it contains; closest first, then by name.
 * @param name - the unknown name
 * @param known - the names of its kind
 * @returns at most three names
 */
export function closestNames(name: string, known: readonly string[]): string[] {
  return known
    .map((candidate) => ({ candidate, distance: distance(name, candidate) }))
    .filter(
      ({ candidate, distance }) =>
        distance <= Math.max(2, Math.floor(Math.max(name.length, candidate.length) / 3)) ||
        (name.length > 0 && (candidate.includes(name) || name.includes(candidate))),
    )
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : 1))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ candidate }) => candidate);
}
