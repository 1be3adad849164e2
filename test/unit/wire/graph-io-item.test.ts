/**
 * A stuff as a graph node's io item (docs/graph-spec.md): digest, bare concept, size, previews and renderings.
 */
import { expect } from 'chai';
import type { Concept } from '../../../shared/mthds/index.js';
import { ioItem } from '../../../shared/wire/graph-spec.js';

const concept = (code: string, domain: string): Concept => ({
  ref: `${domain}.${code}`,
  code,
  domain_code: domain,
  description: 'd',
  refines: null,
  structure: null,
  structure_class_name: code,
  isNative: domain === 'native',
});

describe('ioItem', () => {
  it('should show a Text by its text, its digest the stuff code', () => {
    expect(
      ioItem('note', {
        stuffCode: 'abc',
        stuffName: 'note',
        concept: concept('Text', 'native'),
        content: { kind: 'item', item: { text: 'a <b> & c' } },
      }),
    ).to.deep.equal({
      name: 'note',
      concept: 'Text',
      content_type: null,
      preview: 'a <b> & c',
      size: null,
      digest: 'abc',
      data: { text: 'a <b> & c' },
      data_text: 'a <b> & c',
      data_html: 'a &lt;b&gt; &amp; c',
      extra: {},
    });
  });

  it('should show a list as indented JSON with its item count', () => {
    const item = ioItem('scores', {
      stuffCode: 'l1',
      stuffName: 'scores',
      concept: concept('Score', 'rating'),
      content: { kind: 'list', items: [{ value: 1 }, { value: 2 }] },
    });
    expect(item).to.deep.include({ concept: 'Score', size: 2, data: { items: [{ value: 1 }, { value: 2 }] } });
    expect(item.data_text).to.equal(JSON.stringify([{ value: 1 }, { value: 2 }], null, 2));
  });

  it('should cut the preview after 200 characters and the renderings after 65,536', () => {
    const text = 'x'.repeat(70_000);
    const item = ioItem('long', {
      stuffCode: 'big',
      stuffName: 'long',
      concept: concept('Text', 'native'),
      content: { kind: 'item', item: { text } },
    });
    expect(item.preview).to.equal(`${'x'.repeat(200)}…`);
    expect(item.data_text).to.equal(`${'x'.repeat(65_536)}…`);
    expect(item.data_html).to.equal(item.data_text);
    expect(item.data).to.deep.equal({ text });
  });
});
