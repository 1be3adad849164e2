import { expect } from 'chai';
import type { Concept } from '../../../shared/mthds/index.js';
import { inThreadTemplateRenderer, type RuntimeDeps, WorkingMemory } from '../../../shared/runtime/index.js';
import { renderModel, renderModelWithin } from '../../../shared/runtime/render-model.js';
import { withTemplateBatch } from '../../../shared/runtime/template-batch.js';
import { renderTemplateTask } from '../../../shared/runtime/template-renderer.js';
import { libraryOf } from '../../helpers/library.js';

const LIBRARY = libraryOf(`
domain = "render_model"
[concept.Score]
description = "A score"
[concept.Score.structure]
value = { type = "integer", description = "Value", required = true }
[pipe.noop]
type = "PipeCompose"
description = "d"
inputs = { text = "Text" }
output = "Text"
template = "$text"
`);
const TEXT = LIBRARY.resolveConcept('Text');
const SCORE = LIBRARY.resolveConcept('render_model.Score');

function stuff(concept: Concept, item: Record<string, unknown>) {
  return { stuffCode: 'code', stuffName: null, concept, content: { kind: 'item' as const, item } };
}

/** A memory that grew by one stuff per step, the last one aliased as `main_stuff`. */
function grownMemory(steps: number): WorkingMemory {
  const memory = new WorkingMemory();
  memory.addNewStuff('score', stuff(SCORE, { value: 3 }));
  for (let step = 0; step < steps; step += 1)
    memory.setNewMainStuff(stuff(TEXT, { text: `text ${step}` }), `text_${step}`);
  return memory;
}

describe('renderModel', () => {
  it('should hold only the stuffs and aliases the template reads, however large the memory', () => {
    const model = renderModel(LIBRARY, grownMemory(500), 'First $text_0, last {{ main_stuff }}.');
    expect(model.stuffs).to.have.all.keys('text_0', 'text_499');
    expect(model.aliases).to.deep.equal({ main_stuff: 'text_499' });
  });

  it('should render a template reading one stuff of many as it reads it alone', () => {
    const template = 'Score {{ score.value }} after $text_41.';
    const many = renderModel(LIBRARY, grownMemory(300), template);
    const alone = new WorkingMemory();
    alone.addNewStuff('score', stuff(SCORE, { value: 3 }));
    alone.addNewStuff('text_41', stuff(TEXT, { text: 'text 41' }));
    const options = { category: 'basic' } as const;
    expect(renderTemplateTask({ template, model: many, options }).text)
      .to.equal(renderTemplateTask({ template, model: renderModel(LIBRARY, alone, template), options }).text)
      .and.to.equal('Score 3 after text 41.');
  });

  it('should ignore names the template binds itself', () => {
    const model = renderModel(LIBRARY, grownMemory(3), '{% for text_1 in [1] %}{{ text_1 }}{% endfor %}{{ text_2 }}');
    expect(model.stuffs).to.have.all.keys('text_2');
    expect(model.aliases).to.deep.equal({});
  });
});

describe('withTemplateBatch', () => {
  const deps: RuntimeDeps = {
    inference: {} as RuntimeDeps['inference'],
    ids: { next: () => 'id' },
    now: () => 0,
  };

  it('should keep a renderer the caller injected', () => {
    expect(withTemplateBatch({ ...deps, templates: inThreadTemplateRenderer }).templates).to.equal(
      inThreadTemplateRenderer,
    );
  });

  it('should render on the calling thread like the default renderer without one', async () => {
    const model = renderModel(LIBRARY, grownMemory(2), 'Last: $main_stuff');
    const renderer = withTemplateBatch(deps).templates!;
    for (let round = 0; round < 2; round += 1) {
      expect(await renderer.render('Last: $main_stuff', model, { category: 'basic' })).to.deep.equal(
        await inThreadTemplateRenderer.render('Last: $main_stuff', model, { category: 'basic' }),
      );
    }
  });
});

describe('renderModelWithin', () => {
  const text = (size: number) => ({
    nativeRoot: 'Text',
    content: { kind: 'item' as const, item: { text: 'x'.repeat(size) } },
  });

  it('should count strings by length and every other value, item and member by one', () => {
    const model = { stuffs: { a: text(100) }, aliases: {}, extras: { n: 1 } };
    expect(renderModelWithin(model, 120)).to.equal(true);
    expect(renderModelWithin(model, 100)).to.equal(false);
  });

  it('should stop counting a long list at the limit', () => {
    const items = Array.from({ length: 1_000_000 }, () => ({ text: 'x' }));
    const model = {
      stuffs: { a: { nativeRoot: 'Text', content: { kind: 'list' as const, items } } },
      aliases: {},
      extras: {},
    };
    expect(renderModelWithin(model, 32 * 1024)).to.equal(false);
  });

  it('should count binary values by their bytes', () => {
    const model = { stuffs: {}, aliases: {}, extras: { blob: new Uint8Array(2048) } };
    expect(renderModelWithin(model, 1024)).to.equal(false);
  });
});
