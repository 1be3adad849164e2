import { expect } from 'chai';
import { Jinja2TemplateSyntaxError } from '../../../shared/errors/index.js';
import { templateVariables } from '../../../shared/templating/index.js';

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

  it('should throw Jinja2TemplateSyntaxError on a broken template', () => {
    expect(() => templateVariables('{% if x %}unclosed')).to.throw(Jinja2TemplateSyntaxError, /Template syntax error/);
  });
});
