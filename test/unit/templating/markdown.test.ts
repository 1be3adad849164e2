import { expect } from 'chai';
import { contentArtefact } from '../../../shared/runtime/content-rendering.js';
import { renderTemplate } from '../../../shared/templating/index.js';

const html = (template: string, context: Record<string, unknown>) =>
  renderTemplate(template, context, { category: 'html' });

describe('markdown (docs/templates.md#filters)', () => {
  describe('the markdown filter', () => {
    it('should convert Markdown to HTML in an html template, unescaped by the autoescape', () => {
      expect(html('<div>{{ notes | markdown }}</div>', { notes: 'Paid **on time**' })).to.equal(
        '<div><p>Paid <strong>on time</strong></p>\n</div>',
      );
    });

    it('should show raw HTML of the source as text', () => {
      expect(html('{{ notes | markdown }}', { notes: '<script>alert(1)</script> <b>x</b>' })).to.equal(
        '<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;x&lt;/b&gt;</p>\n',
      );
    });

    it('should make anchors only of links whose URL has a scheme, never javascript:', () => {
      const out = html('{{ notes | markdown }}', {
        notes: '[a](https://example.com) [b](/relative) [c](javascript:alert(1)) [d](mailto:x@example.com)',
      });
      expect(out).to.equal(
        '<p><a href="https://example.com">a</a> [b](/relative) [c](javascript:alert(1)) <a href="mailto:x@example.com">d</a></p>\n',
      );
    });

    it('should render undefined and None as nothing', () => {
      expect(html('[{{ missing | markdown }}]', {})).to.equal('[]');
      expect(html('[{{ nothing | markdown }}]', { nothing: null })).to.equal('[]');
    });

    it('should be refused outside html templates, as the filter sets of §11 say', () => {
      for (const category of ['basic', 'markdown', 'llm_prompt', 'img_gen_prompt', 'expression', 'mermaid'] as const)
        expect(() => renderTemplate('{{ x | markdown }}', { x: 'y' }, { category }), category).to.throw(
          /filter 'markdown' is not allowed/,
        );
    });
  });

  describe('the Markdown native', () => {
    const note = contentArtefact('Markdown', { kind: 'item', item: { text: '# Title\n<i>raw</i>' } });

    it('should print as converted, escaped HTML in an html template', () => {
      expect(html('{{ note }}', { note })).to.equal('<h1>Title</h1>\n<p>&lt;i&gt;raw&lt;/i&gt;</p>\n');
    });

    it('should print its source elsewhere, and its text field as text everywhere', () => {
      expect(renderTemplate('{{ note }}', { note }, { category: 'basic' })).to.equal('# Title\n<i>raw</i>');
      expect(html('{{ note.text }}', { note })).to.equal('# Title\n&lt;i&gt;raw&lt;/i&gt;');
    });
  });

  describe('strict undefined', () => {
    it('should refuse printing an undefined value and print None for null', () => {
      expect(() => renderTemplate('{{ a.b }}', { a: {} }, { category: 'html', strictUndefined: true })).to.throw(
        /prints a value that is undefined/,
      );
      expect(renderTemplate('{{ a.b }}', { a: { b: null } }, { category: 'html', strictUndefined: true })).to.equal(
        'None',
      );
      expect(renderTemplate('[{{ a.b }}]', { a: {} }, { category: 'html' })).to.equal('[]');
    });
  });
});
