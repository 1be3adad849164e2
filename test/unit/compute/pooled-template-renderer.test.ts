import { expect } from 'chai';
import { PooledTemplateRenderer } from '../../../shared/compute/index.js';
import type { RenderModel } from '../../../shared/runtime/index.js';

const SETTINGS = { maxOutputKib: 1024, renderTimeoutMs: 5000, renderHeapMib: 64, renderThreads: 1 };

/**
 * A model that cannot be posted to a thread (one extra is a function, which structured cloning refuses): a render of it
 * succeeds only on the calling thread.
 */
const stayingModel = (size: number): RenderModel => ({
  stuffs: { name: { nativeRoot: 'Text', content: { kind: 'item', item: { text: 'A'.repeat(size) } } } },
  aliases: {},
  extras: { unclonable: () => undefined },
});

async function failureOf(rendering: Promise<unknown>): Promise<unknown> {
  return rendering.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('PooledTemplateRenderer: where a render runs', () => {
  let renderer: PooledTemplateRenderer;
  before(() => {
    renderer = new PooledTemplateRenderer(SETTINGS);
  });
  after(() => renderer.close());

  it('should render a straight-line template reading a small model on the calling thread', async () => {
    const rendered = await renderer.render('Hello $name!', stayingModel(3), { category: 'llm_prompt' });
    expect(rendered).to.deep.equal({ text: 'Hello AAA!' });
  });

  it('should send a template with a loop to a render thread', async () => {
    const failure = await failureOf(
      renderer.render('{% for i in [1] %}$name{% endfor %}', stayingModel(3), { category: 'llm_prompt' }),
    );
    expect(failure).to.have.property('name', 'DataCloneError');
  });

  it('should send a straight-line template reading more than 32 Ki characters to a render thread', async () => {
    const failure = await failureOf(renderer.render('Hello $name!', stayingModel(40_000), { category: 'llm_prompt' }));
    expect(failure).to.have.property('name', 'DataCloneError');
  });

  it('should refuse an aborted render before it runs', async () => {
    const signal = AbortSignal.abort(new Error('the run was cancelled'));
    const failure = await failureOf(
      renderer.render('Hello $name!', stayingModel(3), { category: 'llm_prompt', signal }),
    );
    expect(failure).to.have.property('message', 'the run was cancelled');
  });
});
