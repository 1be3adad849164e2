import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { loadSettings } from '../../shared/config/index.js';
import { createMockBackend } from '../../shared/inference/index.js';
import type { FetchedMethod, FetchPurpose, MethodFetcher } from '../../shared/methods/index.js';
import { createLogger } from '../../shared/observability/index.js';
import { corpusMethodBundles, corpusText, DOCUMENTS_BUNDLE, methodClosureFiles, sample } from '../helpers/corpus.js';
import { buildTestApp } from '../helpers/test-app.js';

const app = buildTestApp();

type File = { content: string; source?: string | null };

function resolve(body: unknown, target = app) {
  return request(target)
    .post('/v1/resolve')
    .send(body as object);
}

const VALID_SAMPLES = [
  'hello_greeting',
  'cv_job_match',
  'fashion_moodboard',
  'draft_with_signature',
  'batch_candidate_screening',
  'invalid/missing_main_pipe',
];
const methodBundles = corpusMethodBundles();

async function fingerprintOf(files: File[]): Promise<string> {
  const response = await resolve({ files }).expect(200);
  expect(response.body.is_valid, JSON.stringify(response.body.validation_errors)).to.equal(true);
  return response.body.crate.fingerprint;
}

describe('POST /v1/resolve', () => {
  describe('when the closure is a valid sample', () => {
    for (const name of VALID_SAMPLES) {
      it(`should answer the crate of ${name}`, async () => {
        const response = await resolve({ files: [{ content: sample(name), source: `${name}.mthds` }] }).expect(200);
        expect(response.headers['content-type']).to.equal('application/json');
        expect(Object.keys(response.body)).to.deep.equal(['is_valid', 'crate', 'message']);
        expect(response.body).to.include({ is_valid: true, message: 'MTHDS library resolved successfully' });
        const { crate } = response.body;
        expect(Object.keys(crate)).to.deep.equal([
          'mthds_version',
          'concepts',
          'pipes',
          'domains',
          'source_map',
          'fingerprint',
        ]);
        expect(crate.mthds_version).to.equal('1.0.0');
        expect(crate.fingerprint).to.match(/^[0-9a-f]{64}$/);
        const domain = name.replace('invalid/', '');
        expect(Object.keys(crate.domains)).to.deep.equal([domain]);
        expect(Object.keys(crate.pipes).every((ref) => ref.startsWith(`${domain}.`))).to.equal(true);
        expect(new Set(Object.values(crate.source_map))).to.deep.equal(new Set([`${name}.mthds`]));
      });
    }

    it('should answer the exact crate of hello_greeting', async () => {
      const response = await resolve({ files: [{ content: sample('hello_greeting'), source: 'hello.mthds' }] }).expect(
        200,
      );
      const { fingerprint, ...crate } = response.body.crate;
      expect(crate).to.deep.equal({
        mthds_version: '1.0.0',
        concepts: { 'native.Text': { description: 'A text' } },
        pipes: {
          'hello_greeting.write_greeting': {
            type: 'PipeLLM',
            description: 'Write a short, friendly greeting for the given name',
            inputs: { name: 'native.Text' },
            output: 'native.Text',
            prompt: 'Write a short, friendly one-sentence greeting for $name.',
          },
        },
        domains: {
          hello_greeting: {
            code: 'hello_greeting',
            description: 'Minimal runnable method — turn a name into a short greeting',
            main_pipe: 'write_greeting',
          },
        },
        source_map: { 'hello_greeting.write_greeting': 'hello.mthds' },
      });
      expect(fingerprint).to.match(/^[0-9a-f]{64}$/);
    });
  });

  describe('when validation_mode is strict', () => {
    it('should refuse what only compat accepts, and resolve the same closure in compat', async () => {
      const files = [{ content: sample('batch_candidate_screening'), source: 'batch.mthds' }];
      const strict = await resolve({ files, validation_mode: 'strict' }).expect(200);
      expect(strict.body.is_valid).to.equal(false);
      expect(
        strict.body.validation_errors.map((item: { error_type: string; pipe_code: string }) => [
          item.error_type,
          item.pipe_code,
        ]),
      ).to.deep.equal([
        ['input_stuff_spec_mismatch', 'prepare_job_offer'],
        ['input_stuff_spec_mismatch', 'process_cv'],
      ]);
      const compat = await resolve({ files }).expect(200);
      expect(compat.body.is_valid).to.equal(true);
    });
  });

  describe('when the closure is a published method', () => {
    for (const bundle of methodBundles) {
      it(`should resolve ${bundle} with the same fingerprint whatever the order of its files`, async () => {
        const files = methodClosureFiles(bundle);
        const forward = await fingerprintOf(files);
        expect(await fingerprintOf([...files].reverse())).to.equal(forward);
      });
    }

    it('should leave the cross-package step refs of doc_summarizer as written and qualify its local ones', async () => {
      const response = await resolve({ files: methodClosureFiles('doc_summarizer/bundle.mthds') }).expect(200);
      const steps = Object.values(
        response.body.crate.pipes as Record<string, { type: string; steps?: { pipe: string }[] }>,
      )
        .flatMap((pipe) => pipe.steps ?? [])
        .map((step) => step.pipe);
      expect(steps.filter((ref) => ref.includes('->'))).to.include(
        'github.com/Pipelex/methods/documents->documents.extract_text_pages',
      );
      expect(steps.filter((ref) => !ref.includes('->')).every((ref) => /^[a-z_]+\.[a-z_]+$/.test(ref))).to.equal(true);
      expect(response.body.crate.source_map['documents.extract_text_pages']).to.equal(DOCUMENTS_BUNDLE);
    });
  });

  describe('when the closure is every valid bundle of the corpus at once', () => {
    it('should resolve, with the same fingerprint reversed and with other source labels', async () => {
      const files: File[] = [
        ...VALID_SAMPLES.map((name) => ({ content: sample(name), source: `${name}.mthds` })),
        ...methodBundles.map((bundle) => ({ content: corpusText(`methods/${bundle}`), source: bundle })),
      ];
      const forward = await fingerprintOf(files);
      expect(await fingerprintOf([...files].reverse())).to.equal(forward);
      expect(
        await fingerprintOf(files.map(({ content }, index) => ({ content, source: `file-${index}.mthds` }))),
      ).to.equal(forward);
    });
  });

  describe('when the closure does not validate', () => {
    it('should answer the exact CrateInvalidReport, items carrying the source', async () => {
      const response = await resolve({
        files: [{ content: sample('invalid/unknown_concept'), source: 'unknown_concept.mthds' }],
      }).expect(200);
      expect(response.headers['content-type']).to.equal('application/json');
      const message =
        "Pipe 'make_thing', field 'output': concept 'NonExistentConcept' is neither native nor declared by a loaded bundle.";
      expect(response.body).to.deep.equal({
        is_valid: false,
        validation_errors: [
          {
            category: 'pipe_validation',
            message,
            error_type: 'unresolved_concept',
            source: 'unknown_concept.mthds',
            pipe_code: 'make_thing',
            domain_code: 'unknown_concept',
            field_path: 'pipe.make_thing.output',
            field_name: 'output',
            missing_concept_code: 'NonExistentConcept',
            declared_concepts: [],
          },
        ],
        message: `Validation error(s): ${message}`,
      });
    });

    it('should answer one residual item without source for a TOML syntax error', async () => {
      const response = await resolve({
        files: [{ content: sample('invalid/syntax_error'), source: 'syntax_error.mthds' }],
      }).expect(200);
      const message =
        'TOML syntax error (syntax_error.mthds, line 1, column 6): Invalid TOML document: illegal character in key';
      expect(response.body).to.deep.equal({
        is_valid: false,
        validation_errors: [{ category: 'blueprint_validation', message }],
        message: `Validation error(s): ${message}`,
      });
    });

    it('should carry a null source for a file sent without one', async () => {
      const response = await resolve({ files: [{ content: sample('invalid/missing_pipe_ref') }] }).expect(200);
      expect(response.body.is_valid).to.equal(false);
      expect(response.body.validation_errors.map((item: { source?: unknown }) => item.source)).to.deep.equal(
        response.body.validation_errors.map(() => null),
      );
    });
  });

  describe('when the request is malformed', () => {
    const cases: [string, unknown, string][] = [
      [
        'neither files nor method_ref',
        {},
        'body: Value error, provide exactly one of `files`, `method_ref` or `method_id`',
      ],
      [
        'both files and method_ref',
        { files: [{ content: 'domain = "x"' }], method_ref: 'github.com/a/b' },
        'body: Value error, provide exactly one of `files`, `method_ref` or `method_id`',
      ],
      ['an empty files list', { files: [] }, 'body.files: Too small: expected array to have >=1 items'],
      [
        'a file over 1 MiB',
        { files: [{ content: 'a'.repeat(1024 * 1024 + 1) }] },
        'body.files.0.content: MTHDS file exceeds 1024 KiB limit (1048577 bytes)',
      ],
    ];
    for (const [what, body, detail] of cases) {
      it(`should answer 422 ValidationError for ${what}`, async () => {
        const response = await resolve(body).expect(422);
        expect(response.headers['content-type']).to.equal('application/problem+json');
        const { request_id: requestId, ...problem } = response.body;
        expect(requestId).to.be.a('string');
        expect(problem).to.deep.equal({
          type: '/errors/validation-error/',
          title: 'Validation error',
          status: 422,
          detail,
          instance: '/v1/resolve',
          error_type: 'ValidationError',
          error_domain: 'input',
          retryable: false,
        });
      });
    }
  });

  describe('when the request names a method_ref', () => {
    it('should answer 501 MethodRefNotSupported for a registry-form reference', async () => {
      const response = await resolve({ method_ref: 'pipelex/methods' }).expect(501);
      expect(response.body).to.include({
        status: 501,
        error_type: 'MethodRefNotSupported',
        detail:
          "Method reference 'pipelex/methods' is a registry-form reference, which this deployment does not serve: send an address of the form '{host}/<owner>/<repo>[/<package>][@<tag>]'.",
      });
    });

    it('should resolve the bundles the fetcher gives, for tooling', async () => {
      const calls: [string, FetchPurpose][] = [];
      const fetcher: MethodFetcher = {
        fetch: async (ref, purpose): Promise<FetchedMethod> => {
          calls.push([ref, purpose]);
          return {
            sources: methodClosureFiles('doc_summarizer/bundle.mthds'),
            mainPipe: 'summarize_document',
            libraryFiles: new Map(),
            exports: {},
            provenance: {
              address: 'github.com/pipelex/methods',
              tag: null,
              commit_sha: '0'.repeat(40),
              package_name: 'doc_summarizer',
              package_version: '0.1.0',
            },
          };
        },
      };
      const withFetcher = createApp({
        settings: loadSettings({}),
        logger: createLogger('silent', 'test'),
        inference: createMockBackend(),
        methodFetcher: fetcher,
      });
      const response = await resolve({ method_ref: 'github.com/pipelex/methods/doc_summarizer' }, withFetcher).expect(
        200,
      );
      expect(calls).to.deep.equal([['github.com/pipelex/methods/doc_summarizer', 'tooling']]);
      expect(response.body.is_valid).to.equal(true);
      expect(response.body.crate.fingerprint).to.equal(
        await fingerprintOf(methodClosureFiles('doc_summarizer/bundle.mthds')),
      );
    });
  });
});
