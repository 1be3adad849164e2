/**
 * Template bombs over HTTP (docs/isolation.md#templates): every builtin that can grow output is refused with a 422
 * Jinja2TemplateBudgetError naming TEMPLATE_MAX_OUTPUT_KIB before it allocates, through /v1/execute (PipeCompose and
 * PipeLLM prompts) and /v1/validate (dry run); literal sizes are refused by validation; a render that never yields or
 * outgrows its heap is stopped with its thread. The server keeps answering /health throughout, and answers it while a
 * render that never yields is under way: an ordering, which holds however slow the machine, where a latency bound
 * would not (latencies are measured by `npm run bench`, against anchors of the same run: bench/README.md).
 */

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { PooledTemplateRenderer } from '../../shared/compute/index.js';
import type { Environment } from '../../shared/config/index.js';
import type { TemplateRenderer } from '../../shared/runtime/index.js';
import { composePipe as compose } from '../helpers/compose-pipe.js';
import { testSettings } from '../helpers/config-dir.js';
import { pollUntil } from '../helpers/poll.js';
import { buildTestApp } from '../helpers/test-app.js';

const over = (subject: string) => `Template budget: ${subject}, over TEMPLATE_MAX_OUTPUT_KIB (1024 KiB).`;

/**
 * Each bomb, its template (sizes computed at run time, so static validation lets them through) and the exact detail.
 */
const BOMBS: { pipe: string; template: string; detail: string }[] = [
  {
    pipe: 'center',
    template: '{% set w = 1000000000 %}{{ name | center(w) | length }}',
    detail: over('center(1000000000) would render 1000000000 characters'),
  },
  {
    pipe: 'indent',
    template: '{% set w = 20000000 %}{{ name | indent(w, true) }}',
    detail: over('indent(20000000) would render at least 20000000 characters'),
  },
  {
    pipe: 'replace',
    template: '{{ "x" | center(1000000) | replace(" ", "xx") | length }}',
    detail: over('replace() would render at least 1999999 characters'),
  },
  {
    pipe: 'join',
    template: '{{ range(10000) | join("x" | center(1000)) | length }}',
    detail: over('join() would render at least 10047889 characters'),
  },
  {
    pipe: 'batch',
    template: '{% set n = 1000000000 %}{{ [1, 2] | batch(n, "x") }}',
    detail: over('batch(1000000000) would build lines of 1000000000 items'),
  },
  {
    pipe: 'slice',
    template: '{% set n = 1000000000 %}{{ [1, 2] | slice(n) }}',
    detail: over('slice(1000000000) would build 1000000000 slices'),
  },
  {
    pipe: 'doubling',
    template: '{% set s = "abc" %}{% for i in range(40) %}{% set s = s ~ s %}{% endfor %}{{ s | length }}',
    detail: over('{% set s %} of a value of 1572864 characters'),
  },
  {
    pipe: 'nested',
    template: '{% for i in range(10) %}{% for j in range(10) %}{{ name | center(100000) }}{% endfor %}{% endfor %}',
    detail: over('the rendered text would be 10000000 characters'),
  },
  {
    pipe: 'title',
    template: '{% set s = name | center(600000) %}{{ (s ~ s) | title | length }}',
    detail: over('title() of a text of 1200000 characters'),
  },
];

const BUNDLE = [
  'domain = "bombs"',
  compose('greet', 'Hello {{ name }}'),
  ...BOMBS.map(({ pipe, template }) => compose(pipe, template)),
  `
[pipe.prompt_center]
type = "PipeLLM"
description = "prompt_center"
inputs = { name = "Text" }
output = "Text"
prompt = "{% set w = 1000000000 %}Hi {{ name | center(w) }}"
`,
].join('\n');

const PROMPT_DETAIL = over('center(1000000000) would render 1000000000 characters');

async function listen(
  environment: Environment = {},
  templates?: TemplateRenderer,
): Promise<{ server: Server; url: string }> {
  const server = buildTestApp(environment, undefined, templates).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Asks /health, one request after another, while `work` runs; each must answer 200. */
async function healthWhile(url: string, work: Promise<unknown>): Promise<void> {
  let done = false;
  void work.finally(() => (done = true));
  do await request(url).get('/health').expect(200);
  while (!done);
}

/** The render threads, as `npm start` wires them, counting the renders under way (asked and not yet settled). */
class WatchedRenderer implements TemplateRenderer {
  underWay = 0;
  private readonly threads: PooledTemplateRenderer;
  private started: (() => void) | undefined;

  constructor(environment: Environment) {
    this.threads = new PooledTemplateRenderer(testSettings(environment).templates);
  }

  /** Resolves when the next render is asked. */
  nextRender(): Promise<void> {
    return new Promise((resolve) => {
      this.started = resolve;
    });
  }

  render: TemplateRenderer['render'] = (template, model, options) => {
    this.underWay += 1;
    this.started?.();
    this.started = undefined;
    return this.threads.render(template, model, options).finally(() => {
      this.underWay -= 1;
    });
  };

  close(): Promise<void> {
    return this.threads.close();
  }
}

function budgetProblem(body: Record<string, unknown>, detail: string): void {
  expect(body).to.include({
    status: 422,
    error_type: 'Jinja2TemplateBudgetError',
    error_domain: 'input',
    title: 'Jinja 2 template budget',
    detail,
  });
}

describe('template bombs over HTTP', function () {
  this.timeout(60000);
  let served: { server: Server; url: string };
  before(async () => {
    served = await listen();
  });
  after(() => served.server.close());

  for (const { pipe, detail } of BOMBS) {
    it(`should refuse ${pipe} with a 422 naming TEMPLATE_MAX_OUTPUT_KIB while /health keeps answering`, async () => {
      const bomb = request(served.url)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], pipe_code: pipe, inputs: { name: 'Ada' } })
        .then((answer) => answer);
      const [response] = await Promise.all([bomb, healthWhile(served.url, bomb)]);
      expect(response.status).to.equal(422);
      budgetProblem(response.body, detail);
      const next = await request(served.url)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], pipe_code: 'greet', inputs: { name: 'Ada' } })
        .expect(200);
      expect(next.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal({ text: 'Hello Ada' });
    });
  }

  it('should refuse a PipeLLM prompt bomb before any inference call', async () => {
    const response = await request(served.url)
      .post('/v1/execute')
      .send({ mthds_contents: [BUNDLE], pipe_code: 'prompt_center', inputs: { name: 'Ada' } })
      .expect(422);
    budgetProblem(response.body, PROMPT_DETAIL);
  });

  it('should report every bomb as a dry_run item of /v1/validate', async () => {
    const response = await request(served.url)
      .post('/v1/validate')
      .send({ mthds_contents: [BUNDLE] })
      .expect(200);
    const expected = [
      ...BOMBS.map(({ pipe, detail }) => ({ pipe, detail })),
      { pipe: 'prompt_center', detail: PROMPT_DETAIL },
    ]
      .sort((a, b) => a.pipe.localeCompare(b.pipe))
      .map(({ pipe, detail }) => ({
        category: 'dry_run',
        message: `Dry run of pipe 'bombs.${pipe}' failed: ${detail}`,
        error_type: 'DryRunError',
        pipe_code: pipe,
        domain_code: 'bombs',
      }));
    expect(response.body).to.include({ is_valid: false });
    expect(response.body.validation_errors).to.deep.equal(expected);
  });

  describe('literal sizes over the budget', () => {
    const LITERAL = ['domain = "bombs"', compose('pad', '{{ name | center(1000000000) | length }}')].join('\n');
    const message =
      "Pipe 'pad', field 'template': Template budget: center(1000000000) would render more than TEMPLATE_MAX_OUTPUT_KIB (1024 KiB) allows.";

    it('should be a positioned validation item of /v1/validate', async () => {
      const response = await request(served.url)
        .post('/v1/validate')
        .send({ mthds_contents: [LITERAL] })
        .expect(200);
      expect(response.body.is_valid).to.equal(false);
      expect(response.body.validation_errors).to.deep.equal([
        {
          category: 'blueprint_validation',
          message,
          error_type: 'invalid_template',
          pipe_code: 'pad',
          domain_code: 'bombs',
          field_path: 'pipe.pad.template',
          field_name: 'template',
          source: null,
        },
      ]);
    });

    it('should be a 422 ValidateBundleError on /v1/execute', async () => {
      const response = await request(served.url)
        .post('/v1/execute')
        .send({ mthds_contents: [LITERAL], pipe_code: 'pad', inputs: { name: 'Ada' } })
        .expect(422);
      expect(response.body.error_type).to.equal('ValidateBundleError');
      expect(JSON.stringify(response.body)).to.contain(message);
    });
  });

  describe('renders past the hard limits of the render threads', () => {
    const HEAVY = [
      'domain = "bombs"',
      compose('greet', 'Hello {{ name }}'),
      compose(
        'backtrack',
        '{% set s = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!" %}{{ s | replace(r/(a+)+$/, "x") }}',
      ),
      compose(
        'hoard',
        `{% set a = "x" | center(1000000) %}${Array.from({ length: 12 }, (_, index) => `{% set l${index} = a | list %}`).join('')}{{ [${Array.from({ length: 12 }, (_, index) => `l${index}`).join(', ')}] | length }}`,
      ),
    ].join('\n');
    let limited: { server: Server; url: string };
    before(async () => {
      limited = await listen({ TEMPLATE_RENDER_TIMEOUT_MS: '1000', TEMPLATE_RENDER_HEAP_MIB: '48' });
      await request(limited.url)
        .post('/v1/execute')
        .send({ mthds_contents: [HEAVY], pipe_code: 'greet', inputs: { name: 'Ada' } })
        .expect(200);
    });
    after(() => limited.server.close());

    it('should stop a render that never yields at TEMPLATE_RENDER_TIMEOUT_MS, while /health keeps answering', async () => {
      const bomb = request(limited.url)
        .post('/v1/execute')
        .send({ mthds_contents: [HEAVY], pipe_code: 'backtrack', inputs: { name: 'Ada' } })
        .then((answer) => answer);
      const [response] = await Promise.all([bomb, healthWhile(limited.url, bomb)]);
      expect(response.status).to.equal(422);
      budgetProblem(
        response.body,
        'Template budget: the render ran longer than TEMPLATE_RENDER_TIMEOUT_MS (1000 ms) and was stopped.',
      );
    });

    it('should answer /health while a render that never yields is under way (it renders off the event loop)', async () => {
      // a budget far longer than the test: the render is under way until the client leaves
      const environment = { TEMPLATE_RENDER_TIMEOUT_MS: '600000' };
      const renderer = new WatchedRenderer(environment);
      const watched = await listen(environment, renderer);
      const client = new AbortController();
      try {
        const rendering = renderer.nextRender();
        const bomb = fetch(`${watched.url}/v1/execute`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ mthds_contents: [HEAVY], pipe_code: 'backtrack', inputs: { name: 'Ada' } }),
          signal: client.signal,
        }).catch((error: unknown) => error);
        await rendering;
        for (let probe = 0; probe < 5; probe += 1) {
          await request(watched.url).get('/health').expect(200);
          expect(renderer.underWay, `renders under way when /health answered (probe ${probe})`).to.equal(1);
        }
        client.abort();
        expect(await bomb).to.have.property('name', 'AbortError');
        // the client's leaving abandons the render (its thread is stopped after the grace)
        await pollUntil(
          async () => renderer.underWay,
          (underWay) => underWay === 0,
        );
      } finally {
        client.abort();
        watched.server.closeAllConnections();
        watched.server.close();
        await renderer.close();
      }
    });

    it('should stop a render that outgrows TEMPLATE_RENDER_HEAP_MIB without growing the process', async () => {
      const roomy = await listen({ TEMPLATE_RENDER_TIMEOUT_MS: '30000', TEMPLATE_RENDER_HEAP_MIB: '48' });
      try {
        const before = process.memoryUsage().rss;
        const bomb = request(roomy.url)
          .post('/v1/execute')
          .send({ mthds_contents: [HEAVY], pipe_code: 'hoard', inputs: { name: 'Ada' } })
          .then((answer) => answer);
        const [response] = await Promise.all([bomb, healthWhile(roomy.url, bomb)]);
        expect(response.status).to.equal(422);
        budgetProblem(
          response.body,
          'Template budget: the render needed more memory than TEMPLATE_RENDER_HEAP_MIB (48 MiB) and was stopped.',
        );
        expect(process.memoryUsage().rss - before).to.be.below(256 * 1024 * 1024);
        await request(roomy.url)
          .post('/v1/execute')
          .send({ mthds_contents: [HEAVY], pipe_code: 'greet', inputs: { name: 'Ada' } })
          .expect(200);
      } finally {
        roomy.server.close();
      }
    });
  });
});
