import { expect } from 'chai';
import { PipeInputError } from '../../../shared/errors/index.js';
import type { Concept } from '../../../shared/mthds/index.js';
import { type Stuff, WorkingMemory } from '../../../shared/runtime/index.js';

const TEXT: Concept = {
  ref: 'native.Text',
  code: 'Text',
  domain_code: 'native',
  description: 'A text',
  refines: null,
  structure: null,
  structure_class_name: 'TextContent',
  isNative: true,
};

function textStuff(code: string, text: string): Stuff {
  return { stuffCode: code, stuffName: null, concept: TEXT, content: { kind: 'item', item: { text } } };
}

describe('WorkingMemory', () => {
  describe('when an output has a name', () => {
    it('should store it under the name and alias main_stuff to it', () => {
      const memory = new WorkingMemory();
      memory.setNewMainStuff(textStuff('a', 'first'), 'summary');
      expect(memory.mainStuffName()).to.equal('summary');
      expect(memory.get('main_stuff').stuffCode).to.equal('a');
      expect(memory.aliasEntries()).to.deep.equal([['main_stuff', 'summary']]);
    });
  });

  describe('when an output has no name', () => {
    it('should store it at root.main_stuff and drop the alias', () => {
      const memory = new WorkingMemory();
      memory.setNewMainStuff(textStuff('a', 'first'), 'summary');
      memory.setNewMainStuff(textStuff('b', 'second'), null);
      expect(memory.mainStuffName()).to.equal('main_stuff');
      expect(memory.aliasEntries()).to.deep.equal([]);
      expect(memory.entries().map(([name]) => name)).to.deep.equal(['summary', 'main_stuff']);
    });
  });

  it('should resolve dotted paths into content', () => {
    const memory = new WorkingMemory();
    memory.addNewStuff('page', {
      ...textStuff('p', 'x'),
      content: { kind: 'item', item: { text_and_images: { text: { text: 'deep' } } } },
    });
    expect(memory.resolvePath('page.text_and_images.text.text')?.value).to.equal('deep');
    expect(memory.resolvePath('page.missing.more')?.value).to.equal(undefined);
    expect(memory.resolvePath('nobody')).to.equal(undefined);
  });

  it('should deep-copy content on clone', () => {
    const memory = new WorkingMemory();
    memory.addNewStuff('t', textStuff('t', 'original'));
    const copy = memory.clone();
    const copied = copy.get('t').content;
    if (copied.kind === 'item') copied.item['text'] = 'changed';
    expect(memory.get('t').content).to.deep.equal({ kind: 'item', item: { text: 'original' } });
  });

  it('should name the known stuffs when one is missing', () => {
    const memory = new WorkingMemory();
    memory.addNewStuff('known', textStuff('k', 'x'));
    expect(() => memory.get('unknown')).to.throw(PipeInputError, 'known: known');
  });

  it('should refuse an alias to a missing root stuff', () => {
    expect(() => new WorkingMemory().setAlias('a', 'nothing')).to.throw(PipeInputError);
  });
});
