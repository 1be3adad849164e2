import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { EnvVarNotFoundError, ModelChoiceNotFoundError } from '../../../shared/errors/index.js';
import { loadInferenceConfig, ModelDeck, ModelRouter } from '../../../shared/inference/index.js';

const config = (environment: Record<string, string> = {}) => loadInferenceConfig(undefined, environment);

describe('model deck (packaged defaults)', () => {
  const deck = new ModelDeck(config().deck, () => true);

  it('should resolve presets with their settings, aliases through chains, and handles as themselves', () => {
    expect(deck.resolve('llm', '$writing-factual')).to.deep.equal({ handle: 'gpt-4.1', temperature: 0.1 });
    expect(deck.resolve('llm', '@best-gemini')).to.deep.equal({ handle: 'gemini-pro-latest', temperature: 0.5 });
    expect(deck.resolve('llm', 'my-local-model')).to.deep.equal({ handle: 'my-local-model', temperature: 0.5 });
    expect(deck.resolve('llm', undefined, 'for_object').handle).to.equal('gpt-4o-mini');
  });

  it('should serve every model reference the corpus uses', () => {
    for (const reference of [
      '$writing-factual',
      '$writing-creative',
      '$engineering-structured',
      '$retrieval',
      '$deep-analysis',
      '@best-gemini',
      '@default-small-creative',
    ]) {
      expect(() => deck.resolve('llm', reference), reference).to.not.throw();
    }
    for (const reference of ['@default-extract-document', '@default-text-from-pdf', '@default-extract-web-page'])
      expect(() => deck.resolve('extract', reference)).to.not.throw();
    for (const reference of ['$standard', '$deep']) expect(() => deck.resolve('search', reference)).to.not.throw();
    for (const reference of ['$gen-image', '$gen-image-testing', 'nano-banana-2'])
      expect(() => deck.resolve('img_gen', reference)).to.not.throw();
  });

  it('should read the prefixed forms of references as their sigils', () => {
    expect(deck.resolve('llm', 'preset:vision')).to.deep.equal(deck.resolve('llm', '$vision'));
    expect(deck.resolve('llm', 'alias:default-small')).to.deep.equal({ handle: 'gpt-4o-mini', temperature: 0.5 });
    expect(deck.resolve('llm', 'waterfall:smart-fallback').handle).to.equal('claude-4.6-sonnet');
    expect(deck.resolve('llm', 'handle:gpt-4.1').handle).to.equal('gpt-4.1');
  });

  it('should serve the presets of the reference deck (docs/language.md#model-references-and-the-deck)', () => {
    expect(deck.resolve('llm', '$vision')).to.deep.equal({ handle: 'gpt-4.1', temperature: 0.5 });
    expect(deck.resolve('llm', '$testing-text')).to.deep.equal({ handle: 'gpt-4o-mini', temperature: 0.5 });
    expect(deck.resolve('llm', '$img-gen-prompting')).to.deep.equal({ handle: 'gpt-4.1', temperature: 0.7 });
    expect(deck.resolve('llm', '$img-gen-prompting-cheap')).to.deep.equal({
      handle: 'gemini-flash-latest',
      temperature: 0.7,
    });
    expect(deck.resolve('img_gen', '$synthesize-photo').handle).to.equal('nano-banana-2-lite');
    expect(deck.resolve('extract', '$extract_testing').handle).to.equal('pdfjs-extract-pdf');
    expect(deck.resolve('search', '$linkup-deep').handle).to.equal('linkup-deep');
    expect(deck.resolve('llm', '$synthesizing-data')).to.deep.equal({ handle: 'gpt-4.1', temperature: 0.8 });
    expect(deck.resolve('llm', '$pipe-builder-engineering')).to.deep.equal({ handle: 'gpt-4.1', temperature: 0.2 });
    expect(deck.resolve('llm', '$pipe-builder-img-gen-prompting')).to.deep.equal({
      handle: 'gpt-4.1',
      temperature: 0.7,
    });
    expect(deck.catalog().llm.presets).to.include.members([
      'vision',
      'vision-cheap',
      'vision-diagram',
      'vision-table',
      'testing-text',
      'testing-structured',
      'testing-vision',
      'testing-vision-structured',
      'img-gen-prompting',
      'img-gen-prompting-cheap',
      'retrieval-cheap',
      'retrieval-premium',
      'engineering-code',
      'engineering-code-cheap',
      'engineering-code-cheaper',
      'engineering-codebase-analysis',
      'writing-factual-cheap',
      'writing-creative-cheap',
    ]);
    expect(deck.catalog().img_gen.presets).to.include.members([
      'gen-image-fast',
      'gen-image-high-quality',
      'gen-image-testing-img2img',
      'synthesize-ui',
      'synthesize-chart',
    ]);
  });

  it('should refuse unknown presets, aliases and waterfalls, naming the known ones', () => {
    expect(() => deck.resolve('llm', '$nope')).to.throw(ModelChoiceNotFoundError, '$writing-factual');
    expect(() => deck.resolve('llm', '@nope')).to.throw(ModelChoiceNotFoundError);
    expect(() => deck.resolve('search', '~nope')).to.throw(ModelChoiceNotFoundError);
  });

  it('should take the first servable member of a waterfall', () => {
    const partial = new ModelDeck(config().deck, (handle) => handle === 'gpt-4.1');
    expect(partial.resolve('llm', '~smart-fallback').handle).to.equal('gpt-4.1');
    const none = new ModelDeck(config().deck, () => false);
    expect(() => none.resolve('llm', '~smart-fallback')).to.throw(ModelChoiceNotFoundError, 'No model of waterfall');
  });

  it('should list presets as models, and aliases and waterfalls by category', () => {
    const listing = deck.listing('llm');
    expect(listing.models.every((model) => model.type === 'llm')).to.equal(true);
    expect(listing.models.map((model) => model.name)).to.include('writing-factual');
    expect(Object.keys(listing.aliases)).to.deep.equal(['llm']);
    expect(listing.waterfalls.llm).to.deep.equal({
      'smart-fallback': ['claude-4.6-sonnet', 'gpt-4.1', 'gemini-pro-latest'],
    });
  });
});

describe('model router', () => {
  it('should route by exact route, glob pattern and default, with provider model ids and costs', () => {
    const router = new ModelRouter(config({ OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' }));
    expect(router.route('claude-4.5-sonnet', 'llm')).to.deep.include({
      backend: 'anthropic',
      modelId: 'claude-sonnet-4-5',
    });
    expect(router.route('gpt-4.1', 'llm').spec.costs).to.deep.equal({ input: 2, output: 8 });
    expect(router.route('llama3', 'llm')).to.deep.include({ backend: 'openai', modelId: 'llama3' });
  });

  it('should fall back to the mock in the auto profile when a provider has no credentials', () => {
    expect(new ModelRouter(config({ OPENAI_API_KEY: 'o' })).route('claude-4.5-sonnet', 'llm').backend).to.equal('mock');
    expect(new ModelRouter(config()).route('gpt-4o-mini', 'llm').backend).to.equal('mock');
  });

  it('should refuse in a profile without fallback when the backend lacks credentials', () => {
    expect(() => new ModelRouter(config(), 'all_pipelex_gateway').route('gpt-4o-mini', 'llm')).to.throw(
      EnvVarNotFoundError,
      'pipelex_gateway',
    );
  });
});

describe('judgment deck (docs/inference.md#the-judgment-category)', () => {
  const deck = new ModelDeck(config().deck, () => true);

  it('should resolve @default-judgment and the judgment presets onto LLM handles', () => {
    expect(deck.resolve('judgment', '@default-judgment')).to.deep.equal({ handle: 'gpt-4o-mini' });
    expect(deck.resolve('judgment', '$judgment-strict')).to.deep.equal({ handle: 'gpt-4o-mini', temperature: 0 });
    expect(deck.resolve('judgment', 'gpt-4.1')).to.deep.equal({ handle: 'gpt-4.1' });
  });

  it('should have no default, as the reference kit, and say so when no model is given', () => {
    expect(deck.catalog().judgment).to.deep.equal({
      presets: ['judgment-strict'],
      aliases: ['default-judgment', 'premium-judgment'],
      waterfalls: [],
      hasDefault: false,
      inputs: {},
    });
    expect(deck.catalog().llm.hasDefault).to.equal(true);
    expect(() => deck.resolve('judgment', undefined)).to.throw(
      ModelChoiceNotFoundError,
      'No model is given and the judgment deck has no default.',
    );
    expect(() => deck.resolve('judgment', '@default-general')).to.throw(ModelChoiceNotFoundError);
  });

  it('should say what each judgment name resolves to and reads, for the models whose spec declares inputs', () => {
    const reading = new ModelDeck(
      config().deck,
      () => true,
      new Map([
        ['gpt-4o-mini', ['text', 'images', 'pdf']],
        ['text-judge', ['text']],
      ]),
    );
    expect(reading.catalog().judgment.inputs).to.deep.equal({
      'alias:default-judgment': { model: 'gpt-4o-mini', inputs: ['text', 'images', 'pdf'] },
      'preset:judgment-strict': { model: 'gpt-4o-mini', inputs: ['text', 'images', 'pdf'] },
      'handle:gpt-4o-mini': { model: 'gpt-4o-mini', inputs: ['text', 'images', 'pdf'] },
      'handle:text-judge': { model: 'text-judge', inputs: ['text'] },
    });
  });

  it('should resolve a judgment waterfall to its first model this boot serves (enabled, keys or not), and leave out one serving none', () => {
    const base = config().deck;
    const deckWith = {
      ...base,
      judgment: { ...base.judgment, waterfalls: { cascade: ['text-judge', '@default-judgment'] } },
    };
    const specs = new Map([
      ['gpt-4o-mini', ['text', 'images', 'pdf']],
      ['text-judge', ['text']],
    ]);
    const inputsOf = (canServe: (handle: string) => boolean) =>
      new ModelDeck(deckWith, canServe, specs).catalog().judgment.inputs?.['waterfall:cascade'];
    expect(new ModelDeck(deckWith, () => true, specs).catalog().judgment.waterfalls).to.deep.equal(['cascade']);
    expect(inputsOf(() => true)).to.deep.equal({ model: 'text-judge', inputs: ['text'] });
    expect(inputsOf((handle) => handle !== 'text-judge')).to.deep.equal({
      model: 'gpt-4o-mini',
      inputs: ['text', 'images', 'pdf'],
    });
    expect(inputsOf(() => false)).to.equal(undefined);
    const keyless = new ModelDeck(
      deckWith,
      () => false,
      specs,
      (handle) => handle !== 'text-judge',
    );
    expect(keyless.catalog().judgment.inputs?.['waterfall:cascade']).to.deep.equal({
      model: 'gpt-4o-mini',
      inputs: ['text', 'images', 'pdf'],
    });
  });

  it('should list the judgment category in the /v1/models listing (protocol 0.7.0)', () => {
    const listing = deck.listing();
    expect(Object.keys(listing.aliases)).to.deep.equal(['extract', 'img_gen', 'judgment', 'llm', 'search']);
    expect(listing.models.filter((model) => model.type === 'judgment')).to.deep.equal([
      { name: 'judgment-strict', type: 'judgment', description: 'Closed questions, answered deterministically' },
    ]);
    expect(deck.listing('judgment')).to.deep.equal({
      models: [
        { name: 'judgment-strict', type: 'judgment', description: 'Closed questions, answered deterministically' },
      ],
      aliases: { judgment: { 'default-judgment': 'gpt-4o-mini', 'premium-judgment': 'gpt-4.1' } },
      waterfalls: { judgment: {} },
    });
  });

  it('should ignore a deck table of a category it does not know', () => {
    const dir = mkdtempSync(join(tmpdir(), 'unknown-category-deck-'));
    try {
      mkdirSync(join(dir, 'deck'));
      writeFileSync(
        join(dir, 'deck', '5_doc_gen_deck.toml'),
        '[doc_gen]\nchoice_default = "$pdf"\n[doc_gen.presets]\npdf = { model = "printer" }\n',
      );
      const withUnknown = new ModelDeck(loadInferenceConfig(dir, {}).deck, () => true);
      expect(withUnknown.listing()).to.deep.equal(deck.listing());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should take a choice_default from an override deck file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'judgment-deck-'));
    try {
      mkdirSync(join(dir, 'deck'));
      writeFileSync(join(dir, 'deck', '9_judgment.toml'), '[judgment]\nchoice_default = "@premium-judgment"\n');
      const overridden = new ModelDeck(loadInferenceConfig(dir, {}).deck, () => true);
      expect(overridden.resolve('judgment', undefined).handle).to.equal('gpt-4.1');
      expect(overridden.catalog().judgment.hasDefault).to.equal(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('configuration overrides', () => {
  it('should replace a packaged file and add deck entries from SERVICE_CONFIG_DIR/inference', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inference-config-'));
    try {
      mkdirSync(join(dir, 'deck'));
      writeFileSync(join(dir, 'routing_profiles.toml'), 'active = "local"\n[profiles.local]\ndefault = "openai"\n');
      writeFileSync(
        join(dir, 'deck', 'x_custom.toml'),
        '[llm.aliases]\ndefault-general = "llama3"\nto-preset = "$mine"\n[llm.presets]\nmine = { model = "llama3", temperature = 0.0 }\n',
      );
      const loaded = loadInferenceConfig(dir, { OPENAI_API_KEY: 'k' });
      expect(Object.keys(loaded.routing.profiles)).to.deep.equal(['local']);
      const deck = new ModelDeck(loaded.deck, () => true);
      expect(deck.resolve('llm', undefined).handle).to.equal('llama3');
      expect(deck.resolve('llm', '$mine')).to.deep.equal({ handle: 'llama3', temperature: 0 });
      expect(deck.resolve('llm', '$writing-factual').handle).to.equal('gpt-4.1');
      expect(deck.resolve('llm', '@to-preset').handle).to.equal('llama3');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
