/**
 * The model deck (docs/inference.md#the-model-deck, docs/inference.md#from-a-pipes-model-to-a-call): turns a pipe's
 * `model` reference — `$preset` (or `preset:name`), `@alias`
 * (`alias:name`), `~waterfall` (`waterfall:name`) or a handle (`handle:name`) — into a model handle plus settings, per
 * category. Unknown presets, aliases and waterfalls are bundle errors (422 `ModelChoiceNotFoundError`); the deck's
 * names ({@link ModelDeck.catalog}) let validation refuse them at load.
 */
import { ModelChoiceNotFoundError } from '../../errors/index.js';
import { type ModelInputs, type ModelReferenceCatalog, parseModelReference } from '../../mthds/index.js';
import { type CategoryDeck, type InferenceConfig, MODEL_CATEGORIES, type ModelCategory } from './inference-config.js';

/** A resolved model choice. */
export interface ModelChoice {
  handle: string;
  temperature?: number;
  maxTokens?: number;
}

/** `GET /v1/models` body (docs/api.md#get-v1models). */
export interface ModelDeckListing {
  models: { name: string; type: ModelCategory; description?: string }[];
  aliases: Partial<Record<ModelCategory, Record<string, string>>>;
  waterfalls: Partial<Record<ModelCategory, Record<string, string[]>>>;
}

const MAX_ALIAS_HOPS = 8;

/** The deck of a configuration. */
export class ModelDeck {
  constructor(
    private readonly deck: InferenceConfig['deck'],
    /** Whether a handle can be served now (waterfalls take the first that can). */
    private readonly isAvailable: (handle: string, category: ModelCategory) => boolean,
    /** What each model reads, by handle, for the handles whose spec declares `inputs`. */
    private readonly modelInputs: ReadonlyMap<string, readonly string[]> = new Map(),
    /**
     * Whether this boot serves a handle, credentials or not (its backend is enabled): the waterfall member PipeJudge's
     * load-time capability check judges is the first served one; `isAvailable` when not given.
     */
    private readonly isServed: (handle: string, category: ModelCategory) => boolean = isAvailable,
  ) {}

  /**
   * What the judgment models read, for PipeJudge's load-time input capability check: each alias, preset, waterfall and
   * the default resolved to its handle, and every handle, when the handle's spec declares `inputs`. A waterfall
   * resolves
   * to the first of its models this boot serves (its backend enabled, credentials or not, as the reference's keyless
   * boot keeps every enabled backend): the model the reference checks; one serving none is left out, so the run decides
   * (docs/language.md#pipejudge).
   */
  private judgmentInputs(): Record<string, ModelInputs> {
    const deck = this.categoryDeck('judgment');
    const entries: Record<string, ModelInputs> = {};
    const add = (key: string, reference: string) => {
      let handle: string;
      try {
        const parsed = parseModelReference(reference);
        handle =
          parsed.kind === 'preset'
            ? this.handleOf('judgment', deck.presets[parsed.name]?.model ?? reference)
            : this.handleOf('judgment', reference);
      } catch {
        return;
      }
      const inputs = this.modelInputs.get(handle);
      if (inputs !== undefined) entries[key] = { model: handle, inputs };
    };
    for (const name of Object.keys(deck.aliases)) add(`alias:${name}`, `@${name}`);
    for (const name of Object.keys(deck.presets)) add(`preset:${name}`, `$${name}`);
    for (const [name, members] of Object.entries(deck.waterfalls)) {
      const served = members.find((member) => {
        try {
          return this.isServed(this.handleOf('judgment', member), 'judgment');
        } catch {
          return false;
        }
      });
      if (served !== undefined) add(`waterfall:${name}`, served);
    }
    const fallback = this.defaultReference('judgment', 'for_object');
    if (fallback !== undefined) add('default', fallback);
    for (const [handle, inputs] of this.modelInputs) entries[`handle:${handle}`] = { model: handle, inputs };
    return entries;
  }

  private categoryDeck(category: ModelCategory): CategoryDeck {
    return this.deck[category];
  }

  private defaultReference(category: ModelCategory, purpose: 'for_text' | 'for_object'): string | undefined {
    const deck = this.categoryDeck(category);
    return category === 'llm' ? deck.choice_defaults?.[purpose] : deck.choice_default;
  }

  private handleOf(category: ModelCategory, name: string, hops = 0): string {
    if (hops > MAX_ALIAS_HOPS)
      throw new ModelChoiceNotFoundError(
        `Model alias chain '${name}' (${category}) is longer than ${MAX_ALIAS_HOPS} hops or loops.`,
      );
    const deck = this.categoryDeck(category);
    const reference = parseModelReference(name);
    if (reference.kind === 'alias') {
      const target = deck.aliases[reference.name];
      if (target === undefined) throw this.unknown(category, name);
      return this.handleOf(category, target, hops + 1);
    }
    if (reference.kind === 'preset') {
      const preset = deck.presets[reference.name];
      if (preset === undefined) throw this.unknown(category, name);
      return this.handleOf(category, preset.model, hops + 1);
    }
    if (reference.kind === 'waterfall') {
      const members = deck.waterfalls[reference.name];
      if (members === undefined) throw this.unknown(category, name);
      const available = members
        .map((member) => this.handleOf(category, member, hops + 1))
        .find((handle) => this.isAvailable(handle, category));
      if (available === undefined)
        throw new ModelChoiceNotFoundError(
          `No model of waterfall '${name}' (${category}) can be served: ${members.join(', ')}.`,
        );
      return available;
    }
    return reference.name;
  }

  private unknown(category: ModelCategory, reference: string): ModelChoiceNotFoundError {
    const deck = this.categoryDeck(category);
    const known = [
      ...Object.keys(deck.presets).map((name) => `$${name}`),
      ...Object.keys(deck.aliases).map((name) => `@${name}`),
      ...Object.keys(deck.waterfalls).map((name) => `~${name}`),
    ];
    return new ModelChoiceNotFoundError(
      `Model reference '${reference}' is not in the ${category} model deck (known: ${known.join(', ') || 'none'}); use one of them or a model handle.`,
    );
  }

  /**
   * Resolve a reference.
   * @param category - the operator's category (`judgment` for PipeJudge: its references end on LLM handles)
   * @param reference - the pipe's `model`, or undefined for the deck default
   * @param purpose - for LLMs: text or structured output (different defaults)
   * @throws ModelChoiceNotFoundError (422) for an unknown preset, alias or waterfall
   */
  resolve(
    category: ModelCategory,
    reference: string | undefined,
    purpose: 'for_text' | 'for_object' = 'for_text',
  ): ModelChoice {
    const chosen = (reference ?? this.defaultReference(category, purpose))?.trim();
    if (!chosen) throw new ModelChoiceNotFoundError(`No model is given and the ${category} deck has no default.`);
    const deck = this.categoryDeck(category);
    const parsed = parseModelReference(chosen);
    if (parsed.kind === 'preset') {
      const preset = deck.presets[parsed.name];
      if (!preset) throw this.unknown(category, chosen);
      const choice: ModelChoice = { handle: this.handleOf(category, preset.model) };
      const temperature = preset.temperature ?? deck.choice_defaults?.default_temperature;
      if (temperature !== undefined) choice.temperature = temperature;
      if (preset.max_tokens !== undefined) choice.maxTokens = preset.max_tokens;
      return choice;
    }
    const choice: ModelChoice = { handle: this.handleOf(category, chosen) };
    if (deck.choice_defaults?.default_temperature !== undefined)
      choice.temperature = deck.choice_defaults.default_temperature;
    return choice;
  }

  /**
   * The names the deck knows per category (presets, aliases, waterfalls) and whether it has a default, for the static
   * check of bundles; `judgment` included, with what its models read (`inputs`, when their specs say).
   */
  catalog(): ModelReferenceCatalog {
    const names = (category: ModelCategory) => {
      const deck = this.categoryDeck(category);
      return {
        presets: Object.keys(deck.presets),
        aliases: Object.keys(deck.aliases),
        waterfalls: Object.keys(deck.waterfalls),
        hasDefault: this.defaultReference(category, 'for_object') !== undefined,
      };
    };
    return {
      llm: names('llm'),
      img_gen: names('img_gen'),
      extract: names('extract'),
      search: names('search'),
      judgment: { ...names('judgment'), inputs: this.judgmentInputs() },
    };
  }

  /**
   * The listing of `GET /v1/models`.
   * @param only - one category, or all
   */
  listing(only?: ModelCategory): ModelDeckListing {
    const categories = only ? [only] : MODEL_CATEGORIES;
    const listing: ModelDeckListing = { models: [], aliases: {}, waterfalls: {} };
    for (const category of categories) {
      const deck = this.categoryDeck(category);
      for (const [name, preset] of Object.entries(deck.presets))
        listing.models.push({
          name,
          type: category,
          ...(preset.description ? { description: preset.description } : {}),
        });
      listing.aliases[category] = { ...deck.aliases };
      listing.waterfalls[category] = { ...deck.waterfalls };
    }
    return listing;
  }
}
