/**
 * The template sandbox over HTTP (issue #4, docs/template-rendering.md#sandbox-and-budget,
 * docs/template-rendering.md#sandbox-and-budget): escape attempts
 * and runaway loops in a PipeCompose template or a PipeLLM prompt end in a clean problem document (no stack trace,
 * nothing of the process leaked), the server keeps serving, and /v1/validate reports them as dry-run items. Private
 * names are read with brackets here: a dotted read (`name._secret`) is already refused at load by
 * `S4-template-private-names`, and these cases test the sandbox behind that rule.
 */
import { expect } from 'chai';
import request from 'supertest';
import type { InferencePort } from '../../shared/runtime/index.js';
import { composePipe as compose } from '../helpers/compose-pipe.js';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = [
  'domain = "sandbox"',
  compose('greet', 'Hello {{ name }}'),
  compose('escape_string', '{{ "".constructor.constructor("return process")().env }}'),
  compose('escape_global', '{{ range.constructor("return process")() }}'),
  compose('escape_call', '{{ name.text.toString.call(1) }}'),
  compose('escape_private', '{{ name["_secret"] }}'),
  compose('spin', '{% for i in range(10000) %}{% for j in range(10000) %}x{% endfor %}{% endfor %}'),
  compose('huge_range', '{% for i in range(1000000000) %}x{% endfor %}'),
  compose('recurse', '{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}'),
  `
[pipe.proto_prompt]
type = "PipeLLM"
description = "proto_prompt"
inputs = { name = "Text" }
output = "Text"
prompt = "Hi {{ name['__proto__'] }}"
`,
].join('\n');

/** A backend that counts calls, to show a refused prompt never reaches inference. */
function countingBackend(): InferencePort & { calls: number } {
  const backend = {
    name: 'counting',
    isMock: true,
    calls: 0,
    async generateText() {
      backend.calls += 1;
      return { text: 'answer', usage: { model: 'counting', input_tokens: 1, output_tokens: 1 } };
    },
    async generateObject() {
      backend.calls += 1;
      return { object: {}, usage: { model: 'counting', input_tokens: 1, output_tokens: 1 } };
    },
  };
  return backend;
}

const CASES: { pipe: string; errorType: string; title: string; detail: string }[] = [
  {
    pipe: 'escape_string',
    errorType: 'Jinja2TemplateSecurityError',
    title: 'Jinja 2 template security',
    detail: "Template security: access to 'constructor' is not allowed.",
  },
  {
    pipe: 'escape_global',
    errorType: 'Jinja2TemplateSecurityError',
    title: 'Jinja 2 template security',
    detail: "Template security: access to 'constructor' is not allowed.",
  },
  {
    pipe: 'escape_call',
    errorType: 'Jinja2TemplateSecurityError',
    title: 'Jinja 2 template security',
    detail: "Template security: access to 'call' is not allowed.",
  },
  {
    pipe: 'escape_private',
    errorType: 'Jinja2TemplateSecurityError',
    title: 'Jinja 2 template security',
    detail: "Template security: access to '_secret' is not allowed.",
  },
  {
    pipe: 'proto_prompt',
    errorType: 'Jinja2TemplateSecurityError',
    title: 'Jinja 2 template security',
    detail: "Template security: access to '__proto__' is not allowed.",
  },
  {
    pipe: 'spin',
    errorType: 'Jinja2TemplateBudgetError',
    title: 'Jinja 2 template budget',
    detail: 'Template budget: loops ran over 100000 iterations in one render.',
  },
  {
    pipe: 'huge_range',
    errorType: 'Jinja2TemplateBudgetError',
    title: 'Jinja 2 template budget',
    detail: 'Template budget: range() of 1000000000 items is over the 10000-item limit.',
  },
  {
    pipe: 'recurse',
    errorType: 'Jinja2TemplateRenderError',
    title: 'Jinja 2 template render',
    detail: 'Template render error: RangeError: Maximum call stack size exceeded',
  },
];

describe('template sandbox over HTTP', () => {
  const backend = countingBackend();
  const app = buildTestApp({}, backend);

  for (const { pipe, errorType, title, detail } of CASES) {
    it(`should answer ${pipe} with a clean 422 ${errorType}, then serve the next request`, async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], pipe_code: pipe, inputs: { name: 'Ada' } })
        .expect(422);
      expect(response.headers['content-type']).to.equal('application/problem+json');
      expect(response.body).to.deep.equal({
        type: `/errors/${errorType
          .replace(/^Jinja2/, 'jinja2-')
          .replace(/(?<=[a-z])(?=[A-Z])/g, '-')
          .toLowerCase()}/`,
        title,
        status: 422,
        detail,
        instance: '/v1/execute',
        request_id: response.headers['x-request-id'],
        error_type: errorType,
        error_domain: 'input',
      });
      expect(JSON.stringify(response.body)).to.not.match(/PATH|HOME|node_modules|\.ts:\d+/);
      const next = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], pipe_code: 'greet', inputs: { name: 'Ada' } })
        .expect(200);
      expect(next.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({ text: 'Hello Ada' });
    });
  }

  it('should refuse the prompt before any inference call', () => {
    expect(backend.calls).to.equal(0);
  });

  it('should keep the template detail under strict disclosure (an input error written for the caller)', async () => {
    const response = await request(buildTestApp({ ERROR_DISCLOSURE: 'strict' }, backend))
      .post('/v1/execute')
      .send({ mthds_contents: [BUNDLE], pipe_code: 'escape_string', inputs: { name: 'Ada' } })
      .expect(422);
    expect(response.body).to.include({
      error_type: 'Jinja2TemplateSecurityError',
      detail: "Template security: access to 'constructor' is not allowed.",
    });
  });

  it('should report every sandbox violation as a dry_run item of /v1/validate', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [BUNDLE] })
      .expect(200);
    const item = (pipe: string, message: string) => ({
      category: 'dry_run',
      message: `Dry run of pipe 'sandbox.${pipe}' failed: ${message}`,
      error_type: 'DryRunError',
      pipe_code: pipe,
      domain_code: 'sandbox',
    });
    const expected = CASES.map(({ pipe, detail }) => item(pipe, detail)).sort((a, b) =>
      a.pipe_code.localeCompare(b.pipe_code),
    );
    expect(response.body).to.include({ is_valid: false, is_runnable: false });
    expect(response.body.validation_errors).to.deep.equal(expected);
    expect(response.body.pending_signatures).to.deep.equal([]);
    expect(response.body.message).to.equal(`Dry run error(s): ${expected.map(({ message }) => message).join(' | ')}`);
    expect(backend.calls).to.equal(0);
  });
});
