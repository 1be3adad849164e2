import { expect } from 'chai';
import { hardenedNunjucks } from '../../../shared/templating/sandbox.js';
import { compileTemplate } from '../../../shared/templating/template-compiler.js';

/** Templates of the same and of different shapes, with blocks, macros, loops, literals and characters to escape. */
const TEMPLATES = [
  'Rewrite {{ a }} in "quotes" \\ and\nlines\ttabs \u2028 {{ b|upper }}',
  'Frame {{ b }} in "other" \\ words\nhere\tand \u2028 {{ a|upper }}',
  '{% for x in xs %}{{ loop.index }}:{{ x }}{% else %}none{% endfor %}',
  '{% set q = a ~ "!" %}{{ q }}{% macro m(x, y=2) %}[{{ x }}{{ y }}]{% endmacro %}{{ m(a) }}{{ m(b, 3) }}',
  '{{ {"k": a, z: 2}.k }} {{ a if missing else "no" }} {{ d["k"] }} {{ d.k }}',
  '{% block first %}B{{ a }}{% endblock %}{% block second %}{{ super() }}{% endblock %}',
  '{% filter upper %}x{{ a }}{% endfilter %}{% set c %}cap{{ b }}{% endset %}{{ c }}',
  'plain text only',
  '',
];

const CONTEXTS = [{ a: 'A<&>', b: 'b', xs: [1, 2], d: { k: 'v' } }, {}];

function outcome(render: () => string): string {
  try {
    return `ok ${render()}`;
  } catch (error) {
    return `error ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  }
}

describe('compileTemplate', () => {
  for (const throwOnUndefined of [false, true]) {
    for (const autoescape of [false, true]) {
      it(`should render as nunjucks' own compile does (throwOnUndefined ${throwOnUndefined}, autoescape ${autoescape})`, () => {
        const environment = new hardenedNunjucks.Environment(null, { autoescape, throwOnUndefined });
        for (const source of TEMPLATES) {
          const shared = compileTemplate(source, environment);
          const own = new hardenedNunjucks.Template(source, environment, undefined, true);
          for (const context of CONTEXTS) {
            expect(
              outcome(() => shared.render(context)),
              source,
            ).to.equal(outcome(() => own.render(context)));
          }
        }
      });
    }
  }

  it('should give templates of one shape their own texts and names', () => {
    const environment = new hardenedNunjucks.Environment(null, {});
    const first = compileTemplate('One {{ a }}.', environment);
    const second = compileTemplate('Two {{ b }}!', environment);
    expect(first.render({ a: 'x', b: 'y' })).to.equal('One x.');
    expect(second.render({ a: 'x', b: 'y' })).to.equal('Two y!');
  });

  it("should throw nunjucks' error for a template that does not compile", () => {
    const environment = new hardenedNunjucks.Environment(null, {});
    const source = '{{ {1: 2} }}';
    const expected = outcome(() => new hardenedNunjucks.Template(source, environment, undefined, true).render({}));
    expect(expected).to.match(/^error /);
    expect(outcome(() => compileTemplate(source, environment).render({}))).to.equal(expected);
  });
});
