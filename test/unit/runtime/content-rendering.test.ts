import { expect } from 'chai';
import type { Library } from '../../../shared/mthds/index.js';
import { contentArtefact, markdownOf, nativeRootOf, pythonScalar } from '../../../shared/runtime/content-rendering.js';
import type { Stuff } from '../../../shared/runtime/index.js';
import { renderTemplate } from '../../../shared/templating/index.js';
import { validLibrary } from '../../helpers/library.js';

const BUNDLE = `
domain = "render"
[concept.Report]
description = "A report"
refines = "Text"
[concept.Score]
description = "A score"
[concept.Score.structure]
value = { type = "integer", description = "Value", required = true }
passed = { type = "boolean", description = "Passed", required = true }
[pipe.noop]
type = "PipeCompose"
description = "d"
inputs = { report = "Report" }
output = "Text"
template = "{{ report }}"
`;

function library(): Library {
  return validLibrary([{ content: BUNDLE, source: null }]);
}

function stuffArtefact(lib: Library, item: Stuff): unknown {
  return contentArtefact(nativeRootOf(lib, item.concept), item.content);
}

function stuff(lib: Library, ref: string, content: Stuff['content']): Stuff {
  return { stuffCode: 'c', stuffName: 'n', concept: lib.resolveConcept(ref), content };
}

describe('content rendering', () => {
  const lib = library();

  it('should print a Text-refining concept as its text', () => {
    const artefact = stuffArtefact(lib, stuff(lib, 'render.Report', { kind: 'item', item: { text: 'All good' } }));
    expect(String(artefact)).to.equal('All good');
    expect(renderTemplate('[{{ x }}] [{{ x.text }}]', { x: artefact }, { category: 'basic' })).to.equal(
      '[All good] [All good]',
    );
  });

  it('should print a structured concept as markdown with Python booleans', () => {
    const artefact = stuffArtefact(lib, stuff(lib, 'render.Score', { kind: 'item', item: { value: 3, passed: true } }));
    expect(String(artefact)).to.equal('# value: 3\n# passed: True');
  });

  it('should print the verdict natives as yes/no, the option key, and the label else the level', () => {
    const print = (ref: string, item: Record<string, unknown>) =>
      String(stuffArtefact(lib, stuff(lib, ref, { kind: 'item', item })));
    expect(print('native.YesNo', { yes_no: true, probability: 0.9 })).to.equal('yes');
    expect(print('native.YesNo', { yes_no: false })).to.equal('no');
    expect(print('native.Choice', { choice: 'billing' })).to.equal('billing');
    expect(print('native.Rating', { level: 2, label: 'Critical' })).to.equal('Critical');
    expect(print('native.Rating', { level: 1 })).to.equal('1');
  });

  it('should render the verdict natives as JSON without their absent members', () => {
    const artefact = stuffArtefact(
      lib,
      stuff(lib, 'native.Rating', { kind: 'item', item: { level: 1, label: null, confidence: null, position: 1.2 } }),
    );
    expect(renderTemplate('{{ x | format("json") }} {{ x.level }}', { x: artefact }, { category: 'basic' })).to.equal(
      '{"level":1,"position":1.2} 1',
    );
  });

  it('should print a list of texts as bullets and expose items', () => {
    const artefact = stuffArtefact(
      lib,
      stuff(lib, 'native.Text', { kind: 'list', items: [{ text: 'a' }, { text: 'b' }] }),
    );
    expect(
      renderTemplate(
        '{{ x }}|{{ x.items|length }}|{% for i in x %}{{ i }};{% endfor %}',
        { x: artefact },
        { category: 'basic' },
      ),
    ).to.equal(' • a\n • b|2|a;b;');
  });

  it('should print documents with their title and images as their URL', () => {
    const doc = stuffArtefact(
      lib,
      stuff(lib, 'native.Document', { kind: 'item', item: { url: 'https://x/a.pdf', title: 'A' } }),
    );
    const image = stuffArtefact(lib, stuff(lib, 'native.Image', { kind: 'item', item: { url: 'https://x/i.png' } }));
    expect(String(doc)).to.equal('- A: https://x/a.pdf');
    expect(String(image)).to.equal('https://x/i.png');
  });

  it('should render nested values as markdown', () => {
    expect(markdownOf({ a: { b: 'c' }, l: ['x', 'y'] })).to.equal('# a\n## b: c\n# l\n- x\n- y');
    expect(pythonScalar(null)).to.equal('None');
  });
});
