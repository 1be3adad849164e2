/**
 * `POST /v1/pipe-io` (docs/api.md#post-v1pipe-io): the selection chain and its two refusals, `all_pipes`,
 * `include_files`, the invalid arm, a `method_ref` package's manifest, and — over the reference runner's oracle bundles
 * (`../shared/reference/mthds-ui-pipelines`) and the corpus samples — each map equal to `/v1/validate`'s same-named view.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { loadSettings } from '../../shared/config/index.js';
import { createMockBackend } from '../../shared/inference/index.js';
import type { FetchedMethod, MethodFetcher } from '../../shared/methods/index.js';
import type { BundleSource } from '../../shared/mthds/index.js';
import { createLogger } from '../../shared/observability/index.js';
import { corpusSampleFiles, sample } from '../helpers/corpus.js';
import { buildTestApp } from '../helpers/test-app.js';

const app = buildTestApp();

const ORACLE = new URL('../../../shared/reference/mthds-ui-pipelines/', import.meta.url);

const ARTIFACTS = ['pipe_io_contracts', 'input_form', 'output_form'] as const;

type Report = Record<string, unknown> & Record<(typeof ARTIFACTS)[number], Record<string, unknown>>;

function pipeIo(body: object, target: Express = app) {
  return request(target).post('/v1/pipe-io').send(body);
}

/** A one-pipe bundle: `<domain>.<pipe>` turns a Text `name` into a Text, declared as `main_pipe` when `main`. */
function bundle(domain: string, pipe: string, main: boolean): string {
  return [
    `domain = "${domain}"`,
    ...(main ? [`main_pipe = "${pipe}"`] : []),
    '',
    `[pipe.${pipe}]`,
    'type = "PipeLLM"',
    `description = "${pipe}"`,
    'inputs = { name = "Text" }',
    'output = "Text"',
    'prompt = "Hello $name"',
    '',
  ].join('\n');
}

/** A second pipe in the domain of `bundle(domain, …)`, taking a list and answering a fixed-size list. */
function sibling(domain: string): string {
  return [
    `domain = "${domain}"`,
    '',
    '[pipe.shout]',
    'type = "PipeLLM"',
    'description = "shout"',
    'inputs = { names = "Text[]" }',
    'output = "Text[2]"',
    'prompt = "Shout @names"',
    '',
  ].join('\n');
}

/** A `files[]` item as a request sends it. */
type File = { content: string; source?: string | null };

async function validateViews(files: File[]): Promise<Report> {
  const response = await request(app)
    .post('/v1/validate')
    .send({
      mthds_contents: files.map((file) => file.content),
      views: ['input_form', 'output_form'],
      allow_signatures: true,
    })
    .expect(200);
  expect(response.body.is_valid, JSON.stringify(response.body.validation_errors)).to.equal(true);
  return response.body;
}

/** Every map of a pipe-io answer equals `/v1/validate`'s same-named view restricted to `keys`. */
function expectValidateViews(answer: Report, validate: Report, keys: string[]): void {
  for (const artifact of ARTIFACTS) {
    expect(Object.keys(answer[artifact]).sort(), artifact).to.deep.equal([...keys].sort());
    const expected = Object.fromEntries(keys.map((key) => [key, validate[artifact][key]]));
    expect(answer[artifact], artifact).to.deep.equal(expected);
  }
}

/** The problem members a selection refusal pins (the request id and instance vary). */
function refusal(body: Record<string, unknown>) {
  const { request_id: _id, instance: _instance, ...pinned } = body;
  return pinned;
}

describe('POST /v1/pipe-io', () => {
  describe('when the closure is valid', () => {
    it('should describe the main pipe alone by default, in the exact valid shape', async () => {
      const files = [{ content: bundle('smoke', 'echo', true), source: 'smoke.mthds' }, { content: sibling('smoke') }];
      const response = await pipeIo({ files }).expect(200);
      expect(response.headers['content-type']).to.equal('application/json');
      expect(Object.keys(response.body)).to.deep.equal([
        'is_valid',
        'pipe_ref',
        'pipe_io_contracts',
        'input_form',
        'output_form',
        'default_pipe_ref',
        'pending_signatures',
        'is_runnable',
      ]);
      expect(response.body).to.include({
        is_valid: true,
        pipe_ref: 'smoke.echo',
        default_pipe_ref: 'smoke.echo',
        is_runnable: true,
      });
      expect(response.body.pending_signatures).to.deep.equal([]);
      expectValidateViews(response.body, await validateViews(files), ['smoke.echo']);
    });

    it('should describe a named pipe (qualified or bare) beside the method’s own entry pipe', async () => {
      const files = [{ content: bundle('smoke', 'echo', true) }, { content: sibling('smoke') }];
      const validate = await validateViews(files);
      for (const pipe_ref of ['smoke.shout', 'shout']) {
        const response = await pipeIo({ files, pipe_ref }).expect(200);
        expect(response.body).to.include({ pipe_ref: 'smoke.shout', default_pipe_ref: 'smoke.echo' });
        expectValidateViews(response.body, validate, ['smoke.shout']);
        expect(response.body.pipe_io_contracts['smoke.shout'].output).to.include({
          multiplicity: 'variable',
          item_count: 2,
        });
      }
    });

    it('should describe every pipe with all_pipes, without needing an entry pipe', async () => {
      const cases: [string[], object, string | null, string | null, string[]][] = [
        [
          [bundle('smoke', 'echo', true), sibling('smoke')],
          {},
          'smoke.echo',
          'smoke.echo',
          ['smoke.echo', 'smoke.shout'],
        ],
        [
          [bundle('smoke', 'echo', true), sibling('smoke')],
          { pipe_ref: 'smoke.shout' },
          'smoke.shout',
          'smoke.echo',
          ['smoke.echo', 'smoke.shout'],
        ],
        [[bundle('nomain', 'echo', false)], {}, null, null, ['nomain.echo']],
        [[bundle('smoke', 'echo', true), bundle('other', 'loud', true)], {}, null, null, ['other.loud', 'smoke.echo']],
        [
          [bundle('smoke', 'echo', true), bundle('other', 'loud', true)],
          { pipe_ref: 'other.loud' },
          'other.loud',
          null,
          ['other.loud', 'smoke.echo'],
        ],
      ];
      for (const [contents, extra, pipeRef, defaultRef, keys] of cases) {
        const files = contents.map((content) => ({ content }));
        const response = await pipeIo({ files, all_pipes: true, ...extra }).expect(200);
        expect(response.body.pipe_ref, JSON.stringify(extra)).to.equal(pipeRef);
        expect(response.body.default_pipe_ref).to.equal(defaultRef);
        expectValidateViews(response.body, await validateViews(files), keys);
      }
    });

    it('should state a null default_pipe_ref when the closure has no single main_pipe', async () => {
      const files = [{ content: bundle('smoke', 'echo', true) }, { content: bundle('other', 'loud', true) }];
      const response = await pipeIo({ files, pipe_ref: 'other.loud' }).expect(200);
      expect(response.body).to.include({ pipe_ref: 'other.loud', default_pipe_ref: null });
    });

    it('should list the pending signatures and runnability as /v1/validate does', async () => {
      const content = sample('draft_with_signature');
      const response = await pipeIo({ files: [{ content }], all_pipes: true }).expect(200);
      const validate = await validateViews([{ content, source: null }]);
      expect(response.body.pending_signatures).to.deep.equal(validate['pending_signatures']);
      expect(response.body.pending_signatures).to.not.deep.equal([]);
      expect(response.body.is_runnable).to.equal(false);
      expectValidateViews(response.body, validate, Object.keys(validate.pipe_io_contracts));
    });

    it('should echo the files with include_files in the request’s own shape, and only then', async () => {
      const files = [{ content: bundle('smoke', 'echo', true), source: 'main.mthds' }, { content: sibling('smoke') }];
      expect((await pipeIo({ files, include_files: true }).expect(200)).body.files).to.deep.equal(files);
      expect((await pipeIo({ files, include_files: false }).expect(200)).body).to.not.have.property('files');
    });
  });

  describe('when no pipe can be selected', () => {
    const valid = [{ content: bundle('smoke', 'echo', true) }];
    const cases: [string, object, Record<string, unknown>][] = [
      [
        'a pipe_ref naming no pipe (also under all_pipes)',
        { files: valid, pipe_ref: 'smoke.nope', all_pipes: true },
        {
          type: '/errors/entry-pipe-not-found-error/',
          title: 'Entry pipe not found',
          status: 422,
          detail: "Pipe 'smoke.nope' was not found in the submitted closure (its pipes: smoke.echo).",
          error_type: 'EntryPipeNotFoundError',
          code: 'entry_pipe_not_found',
          error_domain: 'input',
          user_action: {
            kind: 'change_input',
            detail:
              'Check the pipe code for typos and send the qualified `domain.pipe_code` of a pipe the closure declares.',
          },
        },
      ],
      [
        'no pipe_ref and no main_pipe',
        { files: [{ content: bundle('nomain', 'echo', false) }] },
        {
          type: '/errors/entry-pipe-not-found-error/',
          title: 'Entry pipe not found',
          status: 422,
          detail: 'No pipe_ref was given and the closure declares no `main_pipe` (its pipes: nomain.echo).',
          error_type: 'EntryPipeNotFoundError',
          code: 'entry_pipe_not_found',
          error_domain: 'input',
          user_action: {
            kind: 'change_input',
            detail: 'Send a `pipe_ref` naming the pipe to select, or `all_pipes: true` to describe every pipe.',
          },
        },
      ],
      [
        'no pipe_ref and several main_pipes',
        { files: [{ content: bundle('smoke', 'echo', true) }, { content: bundle('other', 'loud', true) }] },
        {
          type: '/errors/entry-pipe-ambiguous-error/',
          title: 'Entry pipe ambiguous',
          status: 422,
          detail: 'No pipe_ref was given and the closure declares several `main_pipe`s (other.loud, smoke.echo).',
          error_type: 'EntryPipeAmbiguousError',
          code: 'entry_pipe_ambiguous',
          error_domain: 'input',
          user_action: {
            kind: 'change_input',
            detail:
              'Send a `pipe_ref` naming one of the declared `main_pipe`s, or `all_pipes: true` to describe every pipe.',
          },
        },
      ],
      [
        'a bare code several domains declare',
        {
          files: [{ content: bundle('smoke', 'echo', true) }, { content: bundle('twin', 'echo', false) }],
          pipe_ref: 'echo',
        },
        {
          type: '/errors/entry-pipe-ambiguous-error/',
          title: 'Entry pipe ambiguous',
          status: 422,
          detail:
            "Pipe 'echo' matches pipes in several domains (smoke.echo, twin.echo): send the qualified ref of one of them.",
          error_type: 'EntryPipeAmbiguousError',
          code: 'entry_pipe_ambiguous',
          error_domain: 'input',
          user_action: {
            kind: 'change_input',
            detail: 'Send a `pipe_ref` holding the qualified `domain.pipe_code` of the pipe to select.',
          },
        },
      ],
    ];
    for (const [name, body, problem] of cases) {
      it(`should refuse ${name} with its own error type`, async () => {
        const response = await pipeIo(body).expect(422);
        expect(response.headers['content-type']).to.equal('application/problem+json');
        expect(refusal(response.body)).to.deep.equal(problem);
      });
    }
  });

  describe('when the closure is invalid', () => {
    it('should answer the CrateInvalidReport before any selection, whatever pipe_ref or include_files say', async () => {
      const broken = [{ content: 'domain = "broken"\nmain_pipe = "missing"\n', source: 'broken.mthds' }];
      for (const extra of [{}, { pipe_ref: 'broken.nope', include_files: true }, { all_pipes: true }]) {
        const response = await pipeIo({ files: broken, ...extra }).expect(200);
        expect(Object.keys(response.body)).to.deep.equal(['is_valid', 'validation_errors', 'message']);
        expect(response.body.is_valid).to.equal(false);
        expect(response.body.validation_errors[0].source).to.equal('broken.mthds');
      }
    });
  });

  describe('when the request is malformed', () => {
    for (const body of [{}, { pipe_ref: 'smoke.echo' }, { files: [{ content: 'x' }], method_ref: 'github.com/o/r' }]) {
      it(`should refuse ${JSON.stringify(body)} with 422 ValidationError`, async () => {
        const response = await pipeIo(body).expect(422);
        expect(response.body).to.include({
          error_type: 'ValidationError',
          detail: 'body: Value error, provide exactly one of `files`, `method_ref` or `method_id`',
        });
      });
    }
  });

  describe('when the closure is a method_ref package', () => {
    function withPackage(sources: BundleSource[], mainPipe: string | null): Express {
      const fetcher: MethodFetcher = {
        fetch: async (): Promise<FetchedMethod> => ({
          sources,
          mainPipe,
          libraryFiles: new Map(),
          exports: {},
          provenance: {
            address: 'github.com/acme/methods',
            tag: null,
            commit_sha: '0'.repeat(40),
            package_name: 'smoke',
            package_version: '0.1.0',
          },
        }),
      };
      return createApp({
        settings: loadSettings({}),
        logger: createLogger('silent', 'test'),
        inference: createMockBackend(),
        methodFetcher: fetcher,
      });
    }
    const method_ref = 'github.com/acme/methods/smoke';

    it('should take the manifest’s main_pipe as the entry pipe, over the closure’s declarations', async () => {
      const target = withPackage(
        [
          { content: bundle('smoke', 'echo', true), source: 'smoke.mthds' },
          { content: bundle('other', 'loud', true), source: 'steps/other.mthds' },
        ],
        'loud',
      );
      const defaulted = await pipeIo({ method_ref, include_files: true }, target).expect(200);
      expect(defaulted.body).to.include({ pipe_ref: 'other.loud', default_pipe_ref: 'other.loud' });
      expect(defaulted.body.files).to.deep.equal([
        { content: bundle('smoke', 'echo', true), source: 'smoke.mthds' },
        { content: bundle('other', 'loud', true), source: 'steps/other.mthds' },
      ]);
      const named = await pipeIo({ method_ref, pipe_ref: 'smoke.echo' }, target).expect(200);
      expect(named.body).to.include({ pipe_ref: 'smoke.echo', default_pipe_ref: 'other.loud' });
    });

    it('should refuse a manifest main_pipe the closure lacks, and still answer all_pipes', async () => {
      const target = withPackage([{ content: bundle('other', 'loud', true), source: 'other.mthds' }], 'echo');
      const refused = await pipeIo({ method_ref }, target).expect(422);
      expect(refused.body).to.include({
        error_type: 'EntryPipeNotFoundError',
        detail:
          "The fetched manifest's main_pipe 'echo' was not found in the method's closure (its pipes: other.loud).",
      });
      const whole = await pipeIo({ method_ref, all_pipes: true }, target).expect(200);
      expect(whole.body).to.include({ pipe_ref: null, default_pipe_ref: null });
      expect(Object.keys(whole.body.pipe_io_contracts)).to.deep.equal(['other.loud']);
    });
  });
});

describe('POST /v1/pipe-io against /v1/validate’s views (oracle bundles and corpus samples)', function () {
  this.timeout(300_000);
  const oracle = existsSync(ORACLE)
    ? readdirSync(ORACLE, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort()
    : [];

  before(function () {
    if (oracle.length === 0) {
      console.log(`    ${ORACLE.pathname} is absent: skipping the comparison over the oracle bundles`);
      this.skip();
    }
  });

  const libraries = (): [string, string][] => [
    ...oracle.map((name): [string, string] => [name, readFileSync(new URL(`${name}/bundle.mthds`, ORACLE), 'utf8')]),
    ...corpusSampleFiles().map((file): [string, string] => [file, sample(file.replace('.mthds', ''))]),
  ];

  it('should answer every pipe, the entry pipe and each named pipe with the contracts and forms of the views', async () => {
    let compared = 0;
    for (const [name, content] of libraries()) {
      const files = [{ content, source: 'bundle.mthds' }];
      const validate = await validateViews(files);
      const every = Object.keys(validate.pipe_io_contracts);
      const whole = await pipeIo({ files, all_pipes: true }).expect(200);
      expect(whole.body.is_valid, name).to.equal(true);
      expectValidateViews(whole.body, validate, every);
      expect(whole.body.pending_signatures, name).to.deep.equal(validate['pending_signatures']);
      expect(whole.body.is_runnable, name).to.equal(validate['is_runnable']);
      if (validate['default_pipe_ref'] !== null) {
        const entry = await pipeIo({ files }).expect(200);
        expect(entry.body.pipe_ref, name).to.equal(validate['default_pipe_ref']);
        expectValidateViews(entry.body, validate, [validate['default_pipe_ref'] as string]);
      }
      for (const pipe_ref of every) {
        const one = await pipeIo({ files, pipe_ref }).expect(200);
        expectValidateViews(one.body, validate, [pipe_ref]);
        compared += 1;
      }
    }
    expect(compared).to.be.greaterThan(oracle.length);
  });
});
