import { expect } from 'chai';
import { expandShorthands } from '../../../shared/templating/index.js';

describe('expandShorthands', () => {
  const cases: [string, string, string][] = [
    ['$x → format', 'Hi $name!', 'Hi {{ name|format() }}!'],
    ['@x → tag with the dotted path', '@doc.pages', '{{ doc.pages|tag("doc.pages") }}'],
    [
      '@?x → optional block',
      '@?audience.text',
      '{% if audience.text %}{{ audience.text|tag("audience.text") }}{% endif %}',
    ],
    ['a trailing dot stays punctuation', 'Target: $fashion_target.', 'Target: {{ fashion_target|format() }}.'],
    ['a digit after $ stays literal', 'costs $100', 'costs $100'],
    ['a digit after @ stays literal', 'at @2x', 'at @2x'],
    ['an e-mail address stays literal', 'mail ann@example.com', 'mail ann@example.com'],
    ['@@ and $$ are escapes', '@@name and $$name', '@name and $name'],
    [
      'CSS at-rules stay literal',
      '@media (max-width: 10px) @keyframes spin {',
      '@media (max-width: 10px) @keyframes spin {',
    ],
    [
      'raw Jinja is left alone',
      '{{ "$x" }} {% if a %}$a{% endif %}',
      '{{ "$x" }} {% if a %}{{ a|format() }}{% endif %}',
    ],
  ];
  for (const [name, input, expected] of cases) {
    it(`should expand: ${name}`, () => {
      expect(expandShorthands(input)).to.equal(expected);
    });
  }
});
