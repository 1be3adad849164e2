import { expect } from 'chai';
import request from 'supertest';
import { Jinja2TemplateSyntaxError } from '../../shared/errors/index.js';
import { checkTemplate, renderTemplate } from '../../shared/templating/index.js';
import { sample } from '../helpers/corpus.js';
import { buildTestApp } from '../helpers/test-app.js';

const MESSAGE =
  "Template syntax error (line 1, column 9): {% set %} assigns plain names only (e.g. {% set total = 1 %}), not 'x.y'.";

describe('{% set x.y = 1 %} in a template', () => {
  describe('when a template is checked or rendered', () => {
    it('should be a Jinja2TemplateSyntaxError naming the target', () => {
      expect(() => checkTemplate('{% set x.y = 1 %}', 'llm_prompt')).to.throw(Jinja2TemplateSyntaxError, MESSAGE);
    });

    it('should refuse it before rendering, with the same error', async () => {
      const failure = await Promise.resolve()
        .then(() => renderTemplate('{% set x.y = 1 %}', {}, { category: 'basic' }))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).to.be.instanceOf(Jinja2TemplateSyntaxError);
      expect(failure).to.include({ error_type: 'Jinja2TemplateSyntaxError', error_domain: 'input', message: MESSAGE });
    });
  });

  describe('when a template nests thousands of parentheses', () => {
    it('should be a Jinja2TemplateSyntaxError without the engine message', () => {
      const deep = `{{ ${'('.repeat(5000)}1${')'.repeat(5000)} }}`;
      expect(() => checkTemplate(deep, 'llm_prompt')).to.throw(
        Jinja2TemplateSyntaxError,
        'Template syntax error: the template nests too deeply to be read (parentheses, brackets or blocks inside one another); flatten it.',
      );
    });
  });

  describe('when a bundle prompt holds it', () => {
    const app = buildTestApp();
    const content = sample('hello_greeting').replace('prompt      = "Write', 'prompt      = "{% set x.y = 1 %}Write');
    const item = {
      category: 'blueprint_validation',
      message: `Pipe 'write_greeting', field 'prompt': ${MESSAGE}`,
      error_type: 'invalid_template',
      source: null,
      pipe_code: 'write_greeting',
      domain_code: 'hello_greeting',
      field_path: 'pipe.write_greeting.prompt',
      field_name: 'prompt',
    };

    it('should answer /v1/validate with an invalid_template item', async () => {
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [content] })
        .expect(200);
      expect(response.body.validation_errors).to.deep.equal([item]);
    });

    it('should answer /v1/execute with a 422 ValidateBundleError carrying the template syntax error, never a 500', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_content: content, inputs: { name: 'Ada' } })
        .expect(422);
      expect(response.body).to.include({
        status: 422,
        error_type: 'ValidateBundleError',
        detail: `Validation error(s): ${item.message}`,
      });
      expect(response.body.validation_errors).to.deep.equal([item]);
    });
  });
});
