/**
 * Fuzz campaign over every POST route (fast-check, fixed seed): arbitrary JSON bodies and mutated valid bodies (corpus
 * bundles with deep dotted keys, deep inline tables and arrays, long strings, huge arrays, deep `inputs`, wrong
 * types, unicode and template snippets), each kept under the body and file limits.
 *
 * Every answer must be a documented status: no 5xx but the intended ones of docs/errors.md "Intended 5xx"; every
 * error is `application/problem+json` with an `error_type` and no stack frame, file path or engine message. Between
 * bodies, `/health` must answer quickly and the process RSS must not grow by more than 1 GiB over the campaign. The
 * status histogram of each route is printed once at the end.
 *
 * `FUZZ_RUNS` sets the bodies per route (100 by default, about a minute in all; 1500 for the long run), `FUZZ_SEED`
 * the seed.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { warmFormatter } from '../../shared/tooling/index.js';
import { corpusSampleFiles, sample } from '../helpers/corpus.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 100);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261122);
/** The 5xx a route may answer by design (docs/errors.md "Intended 5xx"); Redis is up, so no 503 here. */
const INTENDED_5XX = new Set([
  '500 EnvVarNotFoundError',
  '501 MethodRefNotSupported',
  '501 PipeFeatureNotSupportedError',
]);
/** What an error body must never carry: stack frames, source paths, engine messages. */
const LEAKS = /\n\s+at |\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|Maximum call stack|RangeError/;
const MAX_HEALTH_MS = 2000;
/**
 * Most the process RSS may grow over the campaign, in bytes. Growth, not an absolute ceiling: the campaign shares its
 * process with every suite that ran before it, whose modules and apps stay loaded.
 */
const MAX_RSS_GROWTH_BYTES = 1024 ** 3;

const BUNDLES = corpusSampleFiles().map((file) => sample(file.replace(/\.mthds$/, '')));

/** Nested JSON as text, so no deep value is ever built here. */
function nestedJson(depth: number, open: string, close: string): string {
  return `${open.repeat(depth)}1${close.repeat(depth)}`;
}

const TEMPLATE_SNIPPETS = [
  '{% set x.y = 1 %}',
  '{% set x[0] = 1 %}',
  `{{ ${'('.repeat(3000)}1${')'.repeat(3000)} }}`,
  '{% for a in b %}',
  '{{ name | no_such_filter }}',
  '{% include "other.j2" %}',
  '{{ "{{" }}{% raw %}{{{% endraw %}',
  '{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}',
  '@name $name {{ name.a.b.c }}',
];

/** One mutation of a bundle text. */
const mutation: fc.Arbitrary<(text: string) => string> = fc.oneof(
  fc.integer({ min: 1, max: 12_000 }).map((segments) => (text: string) => `${text}\n${'a.'.repeat(segments)}b = 1\n`),
  fc
    .integer({ min: 1, max: 6000 })
    .map((depth) => (text: string) => `${text}\nk = ${'{a='.repeat(depth)}1${'}'.repeat(depth)}\n`),
  fc.integer({ min: 1, max: 6000 }).map((depth) => (text: string) => `${text}\nk = ${nestedJson(depth, '[', ']')}\n`),
  fc
    .integer({ min: 1, max: 6000 })
    .map((depth) => (text: string) => `${'[t.'.repeat(1)}${'t.'.repeat(depth)}t]\n${text}`),
  fc.tuple(fc.integer({ min: 1000, max: 220_000 }), fc.constantFrom('"', "'", '"""', "'''")).map(
    ([length, quote]) =>
      (text: string) =>
        `${text}\nextra = ${quote}${'x'.repeat(length)}${quote}\n`,
  ),
  fc
    .integer({ min: 1000, max: 220_000 })
    .map((length) => (text: string) => text.replace(/(prompt|description)(\s*)= "/, `$1$2= "${'p'.repeat(length)}`)),
  fc.integer({ min: 1000, max: 200_000 }).map((length) => (text: string) => `${text}\nextra = ${'1'.repeat(length)}\n`),
  fc.integer({ min: 100, max: 5000 }).map((count) => (text: string) => `${text}\nextra = [${'1,'.repeat(count)}1]\n`),
  fc
    .constantFrom('output = 42', 'inputs = "Text"', 'type = ["PipeLLM"]', 'main_pipe = {}', 'domain = 1979-05-27')
    .map((line) => (text: string) => text.replace(/^(output|inputs|type|main_pipe|domain)\b.*$/m, line)),
  fc.tuple(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat()).map(
    ([inserted, at]) =>
      (text: string) =>
        `${text.slice(0, at % (text.length + 1))}${inserted}${text.slice(at % (text.length + 1))}`,
  ),
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 50 })).map(
    ([at, length]) =>
      (text: string) =>
        `${text.slice(0, at % (text.length + 1))}${text.slice((at % (text.length + 1)) + length)}`,
  ),
  fc
    .constantFrom(...TEMPLATE_SNIPPETS)
    .map(
      (snippet) => (text: string) =>
        text.replace(/(prompt|template)(\s*)= "/, `$1$2= "${snippet.replaceAll('"', '\\"')}`),
    ),
);

/** A bundle text: a corpus bundle, possibly mutated once or twice. */
const bundleText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...BUNDLES), fc.array(mutation, { maxLength: 2 }))
  .map(([text, mutations]) => mutations.reduce((current, mutate) => mutate(current), text));

/** `inputs` as JSON text: arbitrary JSON, deep nesting, or a plausible object. */
const inputsText: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)),
  fc.integer({ min: 1, max: 6000 }).map((depth) => nestedJson(depth, '{"a":', '}')),
  fc.integer({ min: 1, max: 6000 }).map((depth) => nestedJson(depth, '[', ']')),
  fc
    .string({ unit: 'grapheme', maxLength: 60 })
    .map((name) => JSON.stringify({ name, text: { content: name }, 'name.with.dots': [name] })),
);

/** Builds a route's body text from a bundle text and inputs text. */
type BodyShape = (bundle: string, inputs: string) => string;

const json = (value: string) => JSON.stringify(value);

const SHAPES: Record<string, BodyShape> = {
  '/v1/validate': (bundle) => `{"mthds_contents":[${json(bundle)}],"mthds_sources":["fuzz.mthds"]}`,
  '/v1/resolve': (bundle) => `{"files":[{"content":${json(bundle)},"source":"fuzz.mthds"}]}`,
  '/v1/codegen': (bundle) => `{"files":[{"content":${json(bundle)}}],"kind":"types","target":"python-pydantic"}`,
  '/v1/build/inputs': (bundle) => `{"files":[{"content":${json(bundle)}}],"format":"toml"}`,
  '/v1/build/output': (bundle) => `{"files":[{"content":${json(bundle)}}],"format":"python"}`,
  '/v1/build/runner': (bundle) => `{"files":[{"content":${json(bundle)}}]}`,
  '/v1/build/concept': (bundle) => `{"spec":{"concept_code":"Fuzz","description":${json(bundle)}}}`,
  '/v1/build/pipe-spec': (bundle, inputs) =>
    `{"pipe_type":"PipeLLM","spec":{"pipe_code":"fuzz","description":"d","output":"Text","prompt":${json(bundle)},"inputs":${inputs}}}`,
  '/v1/lint': (bundle) => `{"content":${json(bundle)}}`,
  '/v1/format': (bundle) => `{"content":${json(bundle)}}`,
  '/v1/execute': (bundle, inputs) => `{"mthds_content":${json(bundle)},"inputs":${inputs}}`,
  '/v1/start': (bundle, inputs) => `{"mthds_contents":[${json(bundle)}],"inputs":${inputs}}`,
};

/** A body for a route: arbitrary JSON (sometimes with the route's own keys but wrong types) or a mutated valid body. */
function bodyFor(shape: BodyShape): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 8 }).map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc
        .dictionary(
          fc.constantFrom(
            'mthds_contents',
            'mthds_content',
            'files',
            'content',
            'inputs',
            'kind',
            'target',
            'options',
            'method_ref',
            'pipe_code',
            'spec',
            'pipe_type',
            'callback_urls',
            'pipeline_run_id',
          ),
          fc.jsonValue({ maxDepth: 3 }),
        )
        .map((value) => JSON.stringify(value)),
    },
    { weight: 6, arbitrary: fc.tuple(bundleText, inputsText).map(([bundle, inputs]) => shape(bundle, inputs)) },
  );
}

interface Campaign {
  histogram: Map<string, Map<string, number>>;
  slowestHealthMs: number;
  peakRssBytes: number;
  /** The process RSS when the campaign began, in bytes. */
  startRssBytes: number;
}

function record(campaign: Campaign, route: string, status: number): void {
  const byStatus = campaign.histogram.get(route) ?? new Map<string, number>();
  byStatus.set(String(status), (byStatus.get(String(status)) ?? 0) + 1);
  campaign.histogram.set(route, byStatus);
}

function checkAnswer(route: string, response: request.Response): void {
  const body = response.body as { error_type?: unknown };
  if (response.status >= 500)
    expect(
      INTENDED_5XX.has(`${response.status} ${String(body.error_type)}`),
      `${route} answered ${response.status} ${String(body.error_type)}: ${response.text.slice(0, 300)}`,
    ).to.equal(true);
  if (response.status >= 400) {
    expect(response.headers['content-type'], `${route} ${response.status}`).to.equal('application/problem+json');
    expect(body.error_type, `${route} ${response.status} error_type`).to.be.a('string');
    expect(LEAKS.test(response.text), `${route} leaked internals: ${response.text.slice(0, 300)}`).to.equal(false);
  }
}

async function checkHealth(app: Express, campaign: Campaign): Promise<void> {
  const started = performance.now();
  await request(app).get('/health').expect(200);
  const elapsed = performance.now() - started;
  campaign.slowestHealthMs = Math.max(campaign.slowestHealthMs, elapsed);
  expect(elapsed, '/health latency in ms').to.be.below(MAX_HEALTH_MS);
  const rss = process.memoryUsage().rss;
  campaign.peakRssBytes = Math.max(campaign.peakRssBytes, rss);
  expect(rss - campaign.startRssBytes, 'RSS growth over the campaign, in bytes').to.be.below(MAX_RSS_GROWTH_BYTES);
}

describe('fuzz: every POST route answers a documented status (fast-check)', function () {
  this.timeout(0);
  const campaign: Campaign = { histogram: new Map(), slowestHealthMs: 0, peakRssBytes: 0, startRssBytes: 0 };
  const direct = buildTestApp();
  let queue: QueueDeployment;

  before(async () => {
    queue = startQueueDeployment({ workers: false });
    await warmFormatter();
    campaign.startRssBytes = process.memoryUsage().rss;
  });

  after(async () => {
    await queue.close();
    const rows = [...campaign.histogram].map(
      ([route, byStatus]) =>
        `  ${route.padEnd(19)} ${[...byStatus]
          .sort()
          .map(([status, count]) => `${status}×${count}`)
          .join('  ')}`,
    );
    console.log(
      `\n  fuzz histogram (seed ${SEED}, ${RUNS} bodies per route; slowest /health ${campaign.slowestHealthMs.toFixed(0)} ms, peak RSS ${(campaign.peakRssBytes / 1024 ** 2).toFixed(0)} MiB from ${(campaign.startRssBytes / 1024 ** 2).toFixed(0)} MiB)\n${rows.join('\n')}\n`,
    );
  });

  for (const [route, shape] of Object.entries(SHAPES)) {
    it(`should answer ${route} with documented statuses only`, async () => {
      const app = () => (route === '/v1/start' ? queue.app : direct);
      await fc.assert(
        fc.asyncProperty(bodyFor(shape), async (text) => {
          const response = await request(app()).post(route).set('Content-Type', 'application/json').send(text);
          record(campaign, route, response.status);
          checkAnswer(route, response);
          await checkHealth(app(), campaign);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});
