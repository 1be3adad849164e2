import { expect } from 'chai';
import { loadInferenceConfig, ModelDeck } from '../../../../../shared/inference/index.js';
import { loadLibrary, type ModelReferenceCatalog } from '../../../../../shared/mthds/index.js';
import { buildLibrary } from '../../../../../shared/mthds/library/build-library.js';
import { modelReferences } from '../../../../../shared/mthds/rules/pipes/model-references.js';
import { bundle, loadedBundles } from '../harness.js';

/** A deck of the test's own: one name of each kind per category. */
const CATALOG: ModelReferenceCatalog = {
  llm: { presets: ['vision', 'vision-cheap', 'testing-text'], aliases: ['default-small'], waterfalls: ['fallback'] },
  img_gen: { presets: ['gen-image'], aliases: ['default-general'], waterfalls: [] },
  extract: { presets: ['extract-testing'], aliases: ['default-text-from-pdf'], waterfalls: [] },
  search: { presets: ['standard'], aliases: ['default-search'], waterfalls: [] },
  judgment: { presets: [], aliases: ['default-judgment'], waterfalls: [] },
};

const check = (text: string, models: ModelReferenceCatalog | null = CATALOG) => {
  const bundles = loadedBundles(text);
  return modelReferences.check({
    bundles,
    library: buildLibrary(bundles),
    mode: 'compat',
    ...(models ? { models } : {}),
  });
};

const llm = (model: string) =>
  bundle(
    'vision_demo',
    `[pipe.describe]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { topic = "Text" }\noutput = "Text"\nprompt = "$topic"\nmodel = ${model}`,
  );

const operators = (models: { img: string; extract: string; search: string }) =>
  bundle(
    'media',
    [
      `[pipe.draw]\ntype = "PipeImgGen"\ndescription = "d"\noutput = "Image"\nprompt = "a cat"\nmodel = "${models.img}"`,
      `[pipe.read]\ntype = "PipeExtract"\ndescription = "d"\ninputs = { doc = "Document" }\noutput = "Page[]"\nmodel = "${models.extract}"`,
      `[pipe.look]\ntype = "PipeSearch"\ndescription = "d"\noutput = "SearchResult"\nprompt = "news"\nmodel = "${models.search}"`,
    ].join('\n'),
  );

describe('S4-model-references', () => {
  describe('when a PipeLLM names a preset the deck lacks', () => {
    it('should report it with the closest presets', () => {
      expect(check(llm('"$vison"'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'describe', field 'model': LLM preset 'vison' was not found in the model deck. Did you mean '$vision'? Name one of the deck's presets, aliases or waterfalls, or a model handle.",
          error_type: 'unknown_model',
          source: 'bundle-1.mthds',
          pipe_code: 'describe',
          domain_code: 'vision_demo',
          field_path: 'pipe.describe.model',
          field_name: 'model',
          model_reference: '$vison',
          model_type: 'llm',
          suggestions: ['$vision'],
        },
      ]);
    });
  });

  describe('when the reference is a { kind, name } object, or a prefixed preset with several close names', () => {
    it('should write model_reference as the bundle does and list the suggestions closest first', () => {
      expect(check(llm('{ kind = "preset", name = "testing-txt", raw = "preset:testing-txt" }'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'describe', field 'model': LLM preset 'testing-txt' was not found in the model deck. Did you mean '$testing-text'? Name one of the deck's presets, aliases or waterfalls, or a model handle.",
          error_type: 'unknown_model',
          source: 'bundle-1.mthds',
          pipe_code: 'describe',
          domain_code: 'vision_demo',
          field_path: 'pipe.describe.model',
          field_name: 'model',
          model_reference: 'preset:testing-txt',
          model_type: 'llm',
          suggestions: ['$testing-text'],
        },
      ]);
      expect(
        check(llm('"preset:vision-chep"')).map(({ model_reference, model_type, suggestions }) => ({
          model_reference,
          model_type,
          suggestions,
        })),
      ).to.deep.equal([
        { model_reference: 'preset:vision-chep', model_type: 'llm', suggestions: ['$vision-cheap', '$vision'] },
      ]);
    });
  });

  describe('when the reference is an unknown alias in an inline setting, or a prefixed waterfall', () => {
    it('should report each, without suggestions when none is close', () => {
      expect(check(llm('{ model = "@quantum-oracle", temperature = 0.2 }'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'describe', field 'model': LLM alias 'quantum-oracle' was not found in the model deck. Name one of the deck's presets, aliases or waterfalls, or a model handle.",
          error_type: 'unknown_model',
          source: 'bundle-1.mthds',
          pipe_code: 'describe',
          domain_code: 'vision_demo',
          field_path: 'pipe.describe.model.model',
          field_name: 'model',
          model_reference: '@quantum-oracle',
          model_type: 'llm',
        },
      ]);
      expect(check(llm('"waterfall:nowhere"')).map((item) => item.message)).to.deep.equal([
        "Pipe 'describe', field 'model': LLM waterfall 'nowhere' was not found in the model deck. Name one of the deck's presets, aliases or waterfalls, or a model handle.",
      ]);
    });
  });

  describe('when image, extract and search pipes name references of another category', () => {
    it('should look each up in its own category', () => {
      const items = check(operators({ img: '$vision', extract: '@default-small', search: '$gen-image' }));
      expect(items.map((item) => [item.pipe_code, item.message, item.model_reference, item.model_type])).to.deep.equal([
        [
          'draw',
          "Pipe 'draw', field 'model': Image generation preset 'vision' was not found in the model deck. Name one of the deck's presets, aliases or waterfalls, or a model handle.",
          '$vision',
          'img_gen',
        ],
        [
          'read',
          "Pipe 'read', field 'model': Extract alias 'default-small' was not found in the model deck. Name one of the deck's presets, aliases or waterfalls, or a model handle.",
          '@default-small',
          'text_extractor',
        ],
        [
          'look',
          "Pipe 'look', field 'model': Search preset 'gen-image' was not found in the model deck. Name one of the deck's presets, aliases or waterfalls, or a model handle.",
          '$gen-image',
          'search',
        ],
      ]);
      expect(items.some((item) => 'suggestions' in item)).to.equal(false);
    });
  });

  describe('when a PipeJudge names an LLM alias, in a string or a { model, description } table', () => {
    it('should look it up in the judgment category', () => {
      const judge = (model: string) =>
        bundle(
          'inbox',
          `[pipe.judge]\ntype = "PipeJudge"\ndescription = "d"\ninputs = { message = "Text" }\noutput = "YesNo"\nprompt = "@message"\nquestion = "Urgent?"\nmodel = ${model}`,
        );
      expect(
        check(judge('"@default-small"')).map((item) => [item.field_path, item.message, item.model_type]),
      ).to.deep.equal([
        [
          'pipe.judge.model',
          "Pipe 'judge', field 'model': Judgment alias 'default-small' was not found in the model deck. Name one of the deck's presets, aliases or waterfalls, or a model handle.",
          'judgment',
        ],
      ]);
      expect(
        check(judge('{ model = "@default-judgments", description = "d" }')).map((item) => item.field_path),
      ).to.deep.equal(['pipe.judge.model.model']);
      expect(check(judge('"@default-judgment"'))).to.deep.equal([]);
    });
  });

  describe('when every reference is in the deck, a handle, or absent', () => {
    it('should pass', () => {
      for (const model of ['"$vision"', '"preset:testing-text"', '"@default-small"', '"~fallback"', '"gpt-4o"'])
        expect(check(llm(model)), model).to.deep.equal([]);
      expect(
        check(operators({ img: '$gen-image', extract: '@default-text-from-pdf', search: '$standard' })),
      ).to.deep.equal([]);
    });
  });

  describe('when no deck is given', () => {
    it('should check nothing', () => {
      expect(check(llm('"$vison"'), null)).to.deep.equal([]);
    });
  });

  describe('with the packaged deck', () => {
    const models = new ModelDeck(loadInferenceConfig(undefined, {}).deck, () => true).catalog();

    it('should accept the reference deck presets bundles name', () => {
      for (const preset of [
        'vision',
        'testing-text',
        'img-gen-prompting',
        'img-gen-prompting-cheap',
        'testing-structured',
        'synthesizing-data',
        'pipe-builder-engineering',
        'pipe-builder-img-gen-prompting',
      ])
        expect(check(llm(`"$${preset}"`), models), preset).to.deep.equal([]);
      expect(
        check(
          operators({ img: '$synthesize-photo', extract: '$extract-text-from-pdf', search: '$linkup-deep' }),
          models,
        ),
      ).to.deep.equal([]);
    });

    it('should make the library invalid at load', () => {
      const loaded = loadLibrary([{ content: llm('"$synthesizing-dat"'), source: 'demo.mthds' }], { models });
      expect(loaded.ok).to.equal(false);
      if (loaded.ok) return;
      expect(
        loaded.errors.map((item) => [item.error_type, item.field_path, item.model_reference, item.suggestions]),
      ).to.deep.equal([['unknown_model', 'pipe.describe.model', '$synthesizing-dat', ['$synthesizing-data']]]);
    });
  });
});
