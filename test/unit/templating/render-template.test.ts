import { expect } from 'chai';
import {
  Jinja2TemplateBudgetError,
  Jinja2TemplateRenderError,
  Jinja2TemplateSecurityError,
  Jinja2TemplateSyntaxError,
} from '../../../shared/errors/index.js';
import { checkTemplate, type Renderable, renderTemplate, templateBatch } from '../../../shared/templating/index.js';

function text(value: string): Renderable & Record<string, unknown> {
  const artefact: Record<string, unknown> = { text: value };
  Object.defineProperties(artefact, {
    toString: { value: () => value },
    renderAs: { value: (format: string) => (format === 'json' ? JSON.stringify({ text: value }) : value) },
  });
  return artefact as Renderable & Record<string, unknown>;
}

describe('renderTemplate', () => {
  describe('when printing values', () => {
    it('should print a Renderable through toString and format', () => {
      expect(
        renderTemplate('{{ name }} / $name / {{ name|format("json") }}', { name: text('Ada') }, { category: 'basic' }),
      ).to.equal('Ada / Ada / {"text":"Ada"}');
    });

    it('should print booleans and null Python-style so outcome keys True/False match', () => {
      expect(
        renderTemplate(
          '{{ m.is_match }}|{{ m.other }}|{{ m.nothing }}',
          { m: { is_match: true, other: false, nothing: null } },
          { category: 'expression' },
        ),
      ).to.equal('True|False|None');
    });

    it('should print plain lists and dicts Python-style', () => {
      expect(renderTemplate('{{ l }} {{ d }}', { l: [1, 'a', true], d: { k: 'v' } }, { category: 'basic' })).to.equal(
        "[1, 'a', True] {'k': 'v'}",
      );
    });

    it('should apply string builtins to content artefacts', () => {
      expect(renderTemplate('{{ name|upper }}', { name: text('ada') }, { category: 'basic' })).to.equal('ADA');
    });
  });

  describe('tag styles', () => {
    const context = { doc: text('body') };
    const cases: [string, string][] = [
      ['xml', '<doc>\nbody\n</doc>'],
      ['ticks', 'doc: ```\nbody\n```'],
      ['square_brackets', '[doc]\nbody\n[/doc]'],
      ['no_tag', 'body'],
    ];
    for (const [style, expected] of cases) {
      it(`should wrap @doc in the ${style} style`, () => {
        expect(renderTemplate('@doc', context, { category: 'llm_prompt', tagStyle: style as 'xml' })).to.equal(
          expected,
        );
      });
    }

    it('should default to xml and use `data` without a name', () => {
      expect(renderTemplate('{{ doc|tag }}', context, { category: 'llm_prompt' })).to.equal('<data>\nbody\n</data>');
    });
  });

  describe('undefined variables', () => {
    it('should render empty under format and for @? blocks', () => {
      expect(renderTemplate('[$missing][@?missing]', {}, { category: 'llm_prompt' })).to.equal('[][]');
    });

    it('should throw under tag', () => {
      expect(() => renderTemplate('@missing', {}, { category: 'llm_prompt' })).to.throw(
        Jinja2TemplateRenderError,
        "'missing' is undefined",
      );
    });
  });

  describe('sandbox', () => {
    const escapes = [
      '{{ "".constructor.constructor("return process")() }}',
      '{{ x.constructor }}',
      '{{ x["constructor"] }}',
      '{{ x.__proto__ }}',
      '{{ range.constructor("return process")() }}',
      '{{ cycler.constructor }}',
      '{{ joiner.call }}',
      '{% for i in [1] %}{{ loop.constructor }}{% endfor %}',
      '{{ constructor }}',
      '{{ x.toString.bind(x) }}',
      '{{ x._private }}',
    ];
    for (const template of escapes) {
      it(`should refuse ${template}`, () => {
        expect(() => renderTemplate(template, { x: { _private: 1 } }, { category: 'basic' })).to.throw(
          Jinja2TemplateSecurityError,
        );
      });
    }

    it('should keep ordinary attribute access and artefact metadata working', () => {
      expect(
        renderTemplate(
          '{{ x.a.b }} {{ x._stuff_name }} {{ l[1] }} {{ l|length }}',
          { x: { a: { b: 'ok' }, _stuff_name: 'n' }, l: [1, 2] },
          { category: 'basic' },
        ),
      ).to.equal('ok n 2 2');
    });

    it('should not expose inherited functions', () => {
      expect(renderTemplate('[{{ x.toString }}]', { x: {} }, { category: 'basic' })).to.equal('[]');
    });
  });
});

describe('Jinja2 tests and globals', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['{% if x is defined %}yes{% else %}no{% endif %}', {}, 'no'],
    ['{% if x is defined %}yes{% else %}no{% endif %}', { x: 1 }, 'yes'],
    ['{{ x is none }}|{{ y is not none }}', { x: null, y: 'a' }, 'True|True'],
    ['{{ x is true }}|{{ x is false }}|{{ x is boolean }}', { x: false }, 'False|True|True'],
    ['{{ x is integer }}|{{ y is float }}|{{ z is integer }}', { x: 3, y: 2.5, z: true }, 'True|True|False'],
    ['{{ x is in(l) }}|{{ "b" is in("abc") }}|{{ "k" is in(d) }}', { x: 2, l: [1, 2], d: { k: 1 } }, 'True|True|True'],
    ['{{ l is sequence }}|{{ s is sequence }}|{{ n is sequence }}', { l: [], s: 'a', n: 1 }, 'True|True|False'],
    ['{{ "upper" is filter }}|{{ "nope" is filter }}|{{ "odd" is test }}', {}, 'True|False|True'],
    ['{{ dict(a=1, b="x") }}', {}, "{'a': 1, 'b': 'x'}"],
  ];
  for (const [template, context, expected] of cases) {
    it(`should render ${template} as Jinja2 does`, () => {
      expect(renderTemplate(template, context, { category: 'basic' })).to.equal(expected);
    });
  }
});

describe('templateBatch', () => {
  it('should render like renderTemplate, each template under its own category and text format', () => {
    const batch = templateBatch();
    const context = { name: text('Ada') };
    for (let round = 0; round < 2; round += 1) {
      expect(batch.render('Hi $name', context, { category: 'basic' })).to.equal('Hi Ada');
      expect(batch.render('Hi $name', context, { category: 'basic', textFormat: 'json' })).to.equal(
        renderTemplate('Hi $name', context, { category: 'basic', textFormat: 'json' }),
      );
      expect(batch.render('Hi $name', context, { category: 'llm_prompt' })).to.equal('Hi Ada');
    }
  });

  it('should refuse what renderTemplate refuses, every time', () => {
    const batch = templateBatch();
    for (let round = 0; round < 2; round += 1) {
      expect(() => batch.render('{{ x|tag }}', {}, { category: 'expression' })).to.throw(Jinja2TemplateSyntaxError);
      expect(() => batch.render('{% if %}', {}, { category: 'basic' })).to.throw(Jinja2TemplateSyntaxError);
    }
  });
});

describe('checkTemplate', () => {
  it('should refuse an unknown filter', () => {
    expect(() => checkTemplate('{{ x|bogus }}', 'basic')).to.throw(Jinja2TemplateSyntaxError, "filter 'bogus'");
  });

  it('should refuse an MTHDS filter its category does not allow', () => {
    expect(() => checkTemplate('{{ x|with_images }}', 'basic')).to.throw(
      Jinja2TemplateSyntaxError,
      "filter 'with_images'",
    );
    expect(() => checkTemplate('{{ x|tag }}', 'expression')).to.throw(Jinja2TemplateSyntaxError);
  });

  it('should allow the filters of its category and the builtins', () => {
    expect(() => checkTemplate('{{ x|with_images|tag }} {{ y|join(", ")|upper }}', 'llm_prompt')).to.not.throw();
  });

  it('should refuse the non-deterministic random filter', () => {
    expect(() => checkTemplate('{{ x|random }}', 'basic')).to.throw(Jinja2TemplateSyntaxError);
  });

  it('should refuse a test Jinja2 does not know, naming it', () => {
    expect(() => checkTemplate('{{ x is truthy }}', 'basic')).to.throw(
      Jinja2TemplateSyntaxError,
      "there is no test named 'truthy'",
    );
    expect(() => checkTemplate('{{ x is None }}', 'basic')).to.throw(Jinja2TemplateSyntaxError, "'None'");
  });

  it('should allow every Jinja2 test nunjucks can parse', () => {
    expect(() =>
      checkTemplate('{{ x is defined and x is not none and x is divisibleby(2) and x is in([2]) }}', 'basic'),
    ).to.not.throw();
  });

  it('should refuse templates that load other templates', () => {
    expect(() => checkTemplate('{% include "x.html" %}', 'basic')).to.throw(
      Jinja2TemplateSyntaxError,
      'cannot load other templates',
    );
  });
});

describe('render budget', () => {
  it('should stop a runaway loop with Jinja2TemplateBudgetError', () => {
    const template =
      '{% for a in range(10000) %}{% for b in range(10000) %}{% for c in range(10000) %}x{% endfor %}{% endfor %}{% endfor %}';
    expect(() => renderTemplate(template, {}, { category: 'basic' })).to.throw(Jinja2TemplateBudgetError, 'iterations');
  });

  it('should refuse a huge range', () => {
    expect(() => renderTemplate('{% for i in range(1000000000) %}{% endfor %}', {}, { category: 'basic' })).to.throw(
      Jinja2TemplateBudgetError,
      'range()',
    );
  });

  it('should end runaway macro recursion with a render error', () => {
    expect(() => renderTemplate('{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}', {}, { category: 'basic' })).to.throw(
      Jinja2TemplateRenderError,
    );
  });

  it('should keep ordinary loops and ranges working, and reset the budget between renders', () => {
    for (let round = 0; round < 3; round += 1) {
      expect(
        renderTemplate(
          '{% for i in range(3) %}{{ i }}{% endfor %}{% for i in range(1, 7, 2) %}{{ i }}{% endfor %}',
          {},
          { category: 'basic' },
        ),
      ).to.equal('012135');
    }
  });
});
