/**
 * Fuzz campaign over every POST route (fast-check, fixed seed): arbitrary JSON bodies and mutated valid bodies (the
 * project's own bundles, and the corpus's where `../shared` is present, with deep dotted keys, deep inline tables and
 * arrays, long strings, huge arrays, deep `inputs`, wrong types, unicode and template snippets, and the hostile
 * families of the hardening campaign: fixed multiplicities up to 2^53, deep concept chains, long sequences, lone UTF-16
 * surrogates, bodies of many small values, run parameters out of range), each kept under the body and file limits.
 *
 * Every answer must be a documented status: no 5xx but the intended ones of docs/errors.md#intended-5xx; every
 * error is `application/problem+json` with an `error_type` and no stack frame, file path or engine message. Between
 * bodies, `/health` must answer 200 and the process RSS must not grow by more than 1.5 GiB over the campaign. How fast
 * `/health` answers under hostile bodies is not asserted here (no bound on time holds on every machine): the hardening
 * bench measures it (`npm run bench`, bench/hardening.md). The status histogram of each route is printed once at the
 * end.
 *
 * `FUZZ_RUNS` sets the bodies per route (1,000 by default, as `npm test` runs it), `FUZZ_SEED`
 * the seed.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import fc from 'fast-check';
import request from 'supertest';
import { warmFormatter } from '../../shared/tooling/index.js';
import { CONTROLLERS_BUNDLE } from '../helpers/controllers-bundle.js';
import { corpusSamplesIfPresent } from '../helpers/corpus-samples.js';
import { draftsBundle } from '../helpers/drafts-bundle.js';
import { FILING_BUNDLE, GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { OPTIONAL_BUNDLE } from '../helpers/optional-bundle.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 1000);
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261122);
/** The 5xx a route may answer by design (docs/errors.md#intended-5xx); Redis is up, so no 503 here. */
const INTENDED_5XX = new Set([
  '500 EnvVarNotFoundError',
  '501 MethodRefNotSupported',
  '501 PipeFeatureNotSupportedError',
]);
/** What an error body must never carry: stack frames, source paths, engine messages. */
const LEAKS = /\n\s+at |\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|Maximum call stack|RangeError/;
/**
 * Most the process RSS may grow over the campaign, in bytes. Growth, not an absolute ceiling: the campaign shares its
 * process with every suite that ran before it, whose modules and apps stay loaded. What the fuzzed deployment may keep
 * by design adds up to about 1.2 GiB ({@link FUZZ_DEPLOYMENT}: a 256 MiB diagnostics thread and its formatter's WASM
 * memory, which never shrinks (about 300 MiB after the longest texts), two 256 MiB template render threads, 64 MiB
 * of run records, the 32 MiB answer cache); a leak of 100 KiB per body would pass 1.5 GiB over the 12,000 bodies.
 */
const MAX_RSS_GROWTH_BYTES = 1.5 * 1024 ** 3;
/**
 * The deployment fuzzed: the defaults, but for the ceilings of what a process may keep (diagnostics thread heap, run
 * records in memory) sized down so that their sum stays within {@link MAX_RSS_GROWTH_BYTES}; every body of the
 * campaign fits them.
 */
const FUZZ_DEPLOYMENT = { MAX_REQUEST_BODY_MIB: '16', COMPUTE_HEAP_MIB: '256', RUN_RECORDS_MAX_IN_MEMORY_MIB: '64' };

const BUNDLES = [
  GREETING_BUNDLE,
  FILING_BUNDLE,
  CONTROLLERS_BUNDLE,
  OPTIONAL_BUNDLE,
  draftsBundle('drafts'),
  ...corpusSamplesIfPresent('fuzz'),
];

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

/** A count a caller may pick: small, around the documented bounds, absurd (up to 2^53), or negative. */
const hostileCount: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 0, max: 20 }),
  fc.integer({ min: 900, max: 1100 }),
  fc.constantFrom(10_000, 1_000_000, 999_999_999, 2 ** 32, 2 ** 53),
  fc.integer({ min: -5, max: -1 }),
);

/** A lone UTF-16 surrogate, high or low. */
const loneSurrogate: fc.Arbitrary<string> = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((code) => String.fromCharCode(code));

/** A short string, sometimes carrying a lone surrogate. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.tuple(fc.string({ maxLength: 10 }), loneSurrogate).map(([text, surrogate]) => `${text}${surrogate}`),
);

/**
 * Concepts `FuzzC1` … `FuzzC<depth>`, each with a field of the next, and a pipe `fuzz_chain` that outputs the first.
 */
function conceptChain(depth: number): string {
  const concepts = Array.from({ length: depth }, (_, index) => {
    const level = index + 1;
    const field =
      level < depth
        ? `next = { type = "concept", concept_ref = "FuzzC${level + 1}", description = "n" }`
        : 'leaf = { type = "text", description = "l" }';
    return `[concept.FuzzC${level}]\ndescription = "c"\n[concept.FuzzC${level}.structure]\n${field}\n`;
  });
  return `${concepts.join('\n')}\n[pipe.fuzz_chain]\ntype = "PipeLLM"\ndescription = "d"\noutput = "FuzzC1"\nprompt = "Make one."\n`;
}

/** A sequence `fuzz_sequence` of `length` steps, each a PipeLLM `fuzz_step`. */
function longSequence(length: number): string {
  const steps = Array.from({ length }, (_, index) => `  { pipe = "fuzz_step", result = "r${index}" },`);
  return [
    '[pipe.fuzz_sequence]',
    'type = "PipeSequence"',
    'description = "d"',
    'output = "Text"',
    `steps = [\n${steps.join('\n')}\n]`,
    '[pipe.fuzz_step]',
    'type = "PipeLLM"',
    'description = "d"',
    'output = "Text"',
    'prompt = "Go."',
    '',
  ].join('\n');
}

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
  fc.tuple(fc.integer({ min: 1000, max: 120_000 }), fc.constantFrom('"', "'", '"""', "'''")).map(
    ([length, quote]) =>
      (text: string) =>
        `${text}\nextra = ${quote}${'x'.repeat(length)}${quote}\n`,
  ),
  fc
    .integer({ min: 1000, max: 120_000 })
    .map((length) => (text: string) => text.replace(/(prompt|description)(\s*)= "/, `$1$2= "${'p'.repeat(length)}`)),
  fc.integer({ min: 1000, max: 120_000 }).map((length) => (text: string) => `${text}\nextra = ${'1'.repeat(length)}\n`),
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
  hostileCount.map(
    (count) => (text: string) => text.replace(/^(output\s*=\s*")([^"[]+)(\[\d*\])?"/m, `$1$2[${count}]"`),
  ),
  hostileCount.map(
    (count) => (text: string) => text.replace(/\{ *pipe *= *"([^"]+)"/, `{ nb_output = ${count}, pipe = "$1"`),
  ),
  fc.integer({ min: 1, max: 400 }).map((depth) => (text: string) => `${text}\n${conceptChain(depth)}`),
  fc.integer({ min: 1, max: 2000 }).map((length) => (text: string) => `${text}\n${longSequence(length)}`),
  fc.tuple(loneSurrogate, fc.nat()).map(
    ([surrogate, at]) =>
      (text: string) =>
        `${text.slice(0, at % (text.length + 1))}${surrogate}${text.slice(at % (text.length + 1))}`,
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
  fc.tuple(hostileString, hostileString).map(([key, value]) => JSON.stringify({ name: value, [key]: value })),
  fc.integer({ min: 1, max: 50_000 }).map((count) => `{"name":"n","extra":[${'"a",'.repeat(count)}"a"]}`),
  fc
    .integer({ min: 1, max: 20_000 })
    .map((count) => `{"name":"n","extra":{${Array.from({ length: count }, (_, key) => `"k${key}":0`).join(',')}}}`),
);

/**
 * A run body of the project's own bundles that the runtime gets to see: the greeting (sometimes with a fixed
 * multiplicity), a concept chain or a sequence, with hostile names, run ids and `output_multiplicity`.
 */
const runBodyText: fc.Arbitrary<string> = fc
  .record(
    {
      bundle: fc.oneof(
        fc.constant(GREETING_BUNDLE),
        hostileCount.map((count) => GREETING_BUNDLE.replace('output = "Text"', `output = "Text[${count}]"`)),
        fc
          .integer({ min: 1, max: 400 })
          .map((depth) => `domain = "chain"\nmain_pipe = "fuzz_chain"\n${conceptChain(depth)}`),
        fc
          .integer({ min: 1, max: 300 })
          .map((length) => `domain = "sequence"\nmain_pipe = "fuzz_sequence"\n${longSequence(length)}`),
      ),
      name: fc.oneof({ weight: 3, arbitrary: fc.string({ maxLength: 20 }) }, { weight: 1, arbitrary: hostileString }),
      output_multiplicity: fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: 1, max: 1000 }) },
        { weight: 1, arbitrary: hostileCount },
        { weight: 1, arbitrary: fc.boolean() },
        { weight: 1, arbitrary: fc.double() },
      ),
      pipeline_run_id: hostileString,
    },
    { requiredKeys: ['bundle', 'name'] },
  )
  .map(({ bundle, name, ...parameters }) =>
    JSON.stringify({ mthds_contents: [bundle], inputs: { name }, ...parameters }),
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
function bodyFor(shape: BodyShape, runRoute: boolean): fc.Arbitrary<string> {
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
    ...(runRoute ? [{ weight: 4, arbitrary: runBodyText }] : []),
  );
}

interface Campaign {
  histogram: Map<string, Map<string, number>>;
  /** The process RSS after each route's bodies, in bytes. */
  rssAfter: Map<string, number>;
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

/** Longest failure report, in characters: a counterexample may be a bundle of hundreds of KiB. */
const MAX_REPORT_CHARS = 4000;

/** fast-check's report of a failed property, its counterexample cut to {@link MAX_REPORT_CHARS}. */
function throwShortReport(details: fc.RunDetails<[string]>): void {
  if (!details.failed) return;
  const report = fc.defaultReportMessage(details) ?? 'property failed';
  const cut =
    report.length > MAX_REPORT_CHARS ? `${report.slice(0, MAX_REPORT_CHARS)}… (${report.length} characters)` : report;
  const cause = details.errorInstance instanceof Error ? `\nCaused by: ${details.errorInstance.message}` : '';
  throw new Error(`${cut}${cause}`);
}

async function checkHealth(app: Express, campaign: Campaign): Promise<void> {
  await request(app).get('/health').expect(200);
  const rss = process.memoryUsage().rss;
  campaign.peakRssBytes = Math.max(campaign.peakRssBytes, rss);
  expect(rss - campaign.startRssBytes, 'RSS growth over the campaign, in bytes').to.be.below(MAX_RSS_GROWTH_BYTES);
}

describe('fuzz: every POST route answers a documented status (fast-check)', function () {
  this.timeout(0);
  const campaign: Campaign = {
    histogram: new Map(),
    rssAfter: new Map(),
    peakRssBytes: 0,
    startRssBytes: 0,
  };
  const direct = buildTestApp(FUZZ_DEPLOYMENT);
  let queue: QueueDeployment;

  before(async () => {
    queue = startQueueDeployment({ workers: false, environment: FUZZ_DEPLOYMENT });
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
          .join('  ')}  (RSS after: ${((campaign.rssAfter.get(route) ?? 0) / 1024 ** 2).toFixed(0)} MiB)`,
    );
    console.log(
      `\n  fuzz histogram (seed ${SEED}, ${RUNS} bodies per route; peak RSS ${(campaign.peakRssBytes / 1024 ** 2).toFixed(0)} MiB from ${(campaign.startRssBytes / 1024 ** 2).toFixed(0)} MiB)\n${rows.join('\n')}\n`,
    );
  });

  for (const [route, shape] of Object.entries(SHAPES)) {
    it(`should answer ${route} with documented statuses only`, async () => {
      const app = () => (route === '/v1/start' ? queue.app : direct);
      await fc.assert(
        fc.asyncProperty(bodyFor(shape, route === '/v1/execute' || route === '/v1/start'), async (text) => {
          const response = await request(app()).post(route).set('Content-Type', 'application/json').send(text);
          record(campaign, route, response.status);
          checkAnswer(route, response);
          await checkHealth(app(), campaign);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true, reporter: throwShortReport },
      );
      campaign.rssAfter.set(route, process.memoryUsage().rss);
    });
  }
});
