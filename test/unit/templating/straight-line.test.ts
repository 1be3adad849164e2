import { expect } from 'chai';
import { isStraightLine } from '../../../shared/templating/index.js';

describe('isStraightLine (templates that may render on a thread that must not be held)', () => {
  const straight = [
    'Say hello to $name.',
    'Compare @profile with @?context.text',
    '{{ a|upper }} and {% if b.c > 2 %}{{ b.c }}{% else %}none{% endif %}',
    '{{ "Dear " ~ name|default("you") ~ "," }}',
    '{% if x is defined and not y %}{{ x|tag("x") }}{% endif %}',
  ];
  for (const template of straight)
    it(`should accept ${JSON.stringify(template)}`, () => {
      expect(isStraightLine(template)).to.equal(true);
    });

  const looping = {
    'a loop': '{% for p in pages %}{{ p }}{% endfor %}',
    'a set': '{% set s = name %}{{ s }}',
    'a macro': '{% macro m() %}x{% endmacro %}{{ m() }}',
    'a call': '{{ range(3) }}',
    'a growing filter': '{{ name|center(80) }}',
    replace: '{{ name|replace("a", "aa") }}',
    multiplication: '{{ name * 3 }}',
    'more than 256 nodes': '{{ a }}'.repeat(300),
  };
  for (const [what, template] of Object.entries(looping))
    it(`should refuse ${what}`, () => {
      expect(isStraightLine(template)).to.equal(false);
    });
});
