import { expect } from 'chai';
import { Jinja2TemplateSyntaxError } from '../../../shared/errors/index.js';
import { templatePrivateNames, templateVariables } from '../../../shared/templating/index.js';

describe('templateVariables', () => {
  it('should collect shorthand roots and dotted paths', () => {
    expect(
      templateVariables('Compare $candidate_profile.skills with @job_requirements and @?context.text'),
    ).to.deep.equal({
      roots: ['candidate_profile', 'context', 'job_requirements'],
      paths: ['candidate_profile.skills', 'context.text', 'job_requirements'],
    });
  });

  it('should exclude loop variables, loop and set targets (corpus loop shape)', () => {
    const template =
      '{% for page in pages %}{{ page.text_and_images.text.text }}{% if not loop.last %}\n---\n{% endif %}{% endfor %}{% set n = 3 %}{{ n }}';
    expect(templateVariables(template)).to.deep.equal({ roots: ['pages'], paths: ['pages'] });
  });

  it('should see variables inside filter arguments and conditions', () => {
    expect(templateVariables('{{ a|default(b) }}{% if c > d.e %}x{% endif %}').roots).to.deep.equal([
      'a',
      'b',
      'c',
      'd',
    ]);
  });

  describe('when a template applies Jinja tests (docs/language.md#optionality-presence-markers-and-absences)', () => {
    const cases: [string, string[]][] = [
      ['{% if x is defined %}{{ x }}{% endif %}', ['x']],
      ['{% if x is not defined %}none{% endif %}', ['x']],
      ['{{ x is none }}{{ y is not none }}', ['x', 'y']],
      ['{{ x is undefined }}{{ x is true }}{{ x is false }}', ['x']],
      ['{% if order.notes is defined and order.notes %}{{ order.notes }}{% endif %}', ['order']],
    ];
    for (const [template, roots] of cases) {
      it(`should read only the tested value of ${template}`, () => {
        expect(templateVariables(template).roots).to.deep.equal(roots);
      });
    }

    it('should read the arguments of a test call but not the test name', () => {
      expect(templateVariables('{{ x is divisibleby(n) }}{{ y is in(allowed) }}')).to.deep.equal({
        roots: ['allowed', 'n', 'x', 'y'],
        paths: ['allowed', 'n', 'x', 'y'],
      });
    });

    it('should keep the dotted path of a tested attribute', () => {
      expect(templateVariables('{% if order.notes is defined %}x{% endif %}').paths).to.deep.equal(['order.notes']);
    });
  });

  it('should not read keyword argument names as variables', () => {
    expect(templateVariables('{{ a|default(b, boolean=true) }}{{ dict(key=c) }}').roots).to.deep.equal(['a', 'b', 'c']);
  });

  it('should count a set target as declared from its statement on only', () => {
    expect(templateVariables('{{ n }}{% set n = 3 %}{{ n }}').roots).to.deep.equal(['n']);
  });

  it('should throw Jinja2TemplateSyntaxError on a broken template', () => {
    expect(() => templateVariables('{% if x %}unclosed')).to.throw(Jinja2TemplateSyntaxError, /Template syntax error/);
  });
});

describe('templatePrivateNames', () => {
  it('should list the private attributes read with a dot, shorthands and nested chains included', () => {
    expect(
      templatePrivateNames('@?doc._content {{ a.b._x.c }}\n{{ (a)._y }} {% if v.__class__ %}{% endif %}'),
    ).to.deep.equal(['__class__', '_content', '_x', '_y']);
  });

  it('should leave out metadata fields, bracketed keys and top-level run parameters', () => {
    expect(
      templatePrivateNames('{{ a._stuff_name }} {{ a["_id"] }} {{ a[ \'_k\' ] }} {{ _nb_output }} $a._concept_code'),
    ).to.deep.equal([]);
  });
});
