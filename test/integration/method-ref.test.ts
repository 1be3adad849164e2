import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { loadSettings } from '../../shared/config/index.js';
import { createMethodFetcher } from '../../shared/methods/index.js';
import { createLogger } from '../../shared/observability/index.js';
import { corpusJson } from '../helpers/corpus.js';
import { type MethodRepos, startMethodRepos, tempDir } from '../helpers/method-repos.js';
import { pollUntil } from '../helpers/poll.js';
import { spawnApi } from '../helpers/processes.js';
import { startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const SUMMARIZER_PDF = new URL(
  '../../../shared/corpus/methods/_sample-inputs/doc-summarizer/inputs/synthetic_contract.pdf',
  import.meta.url,
);
const REPORT = 'github.com/pipelex/methods/report_writer';
const reportInputs = corpusJson('methods/report_writer/inputs.json');

describe('method_ref: methods fetched by address from a git server on 127.0.0.1', function () {
  this.timeout(60000);
  let repos: MethodRepos;
  let cacheDir: string;
  let app: Express;

  before(async () => {
    repos = await startMethodRepos();
    cacheDir = tempDir('mthds-cache-');
    app = buildTestApp(repos.environment(cacheDir));
  });

  after(async () => {
    await repos.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const execute = (body: Record<string, unknown>) => request(app).post('/v1/execute').send(body);
  const validate = (body: Record<string, unknown>) => request(app).post('/v1/validate').send(body);

  describe('execute by address', () => {
    it('should run report_writer at v0.1.0 with the provenance of that tag', async () => {
      const response = await execute({ method_ref: `${REPORT}@v0.1.0`, inputs: reportInputs }).expect(200);
      expect(response.body.state).to.equal('COMPLETED');
      expect(response.body.main_stuff_name).to.equal('report');
      expect(response.body.method_provenance).to.deep.equal({
        address: REPORT,
        tag: 'v0.1.0',
        commit_sha: repos.commits.v010,
        package_name: 'report_writer',
        package_version: '0.1.3',
      });
    });

    it('should run report_writer at v0.2.0 with the provenance of that tag', async () => {
      const response = await execute({ method_ref: `${REPORT}@v0.2.0`, inputs: reportInputs }).expect(200);
      expect(response.body.method_provenance).to.deep.equal({
        address: REPORT,
        tag: 'v0.2.0',
        commit_sha: repos.commits.v020,
        package_name: 'report_writer',
        package_version: '0.2.0',
      });
    });

    it('should run a bare address at HEAD with a null tag', async () => {
      const response = await execute({ method_ref: REPORT, inputs: reportInputs }).expect(200);
      expect(response.body.method_provenance).to.include({ tag: null, commit_sha: repos.commits.v020 });
    });

    it('should accept the https:// spelling and a differently cased package selector', async () => {
      const response = await execute({
        method_ref: 'https://github.com/pipelex/methods/Report_Writer@v0.1.0',
        inputs: reportInputs,
      }).expect(200);
      expect(response.body.method_provenance).to.include({
        address: 'github.com/pipelex/methods/Report_Writer',
        commit_sha: repos.commits.v010,
      });
    });

    it('should let pipe_code override the manifest main_pipe', async () => {
      const response = await execute({
        method_ref: `${REPORT}@v0.1.0`,
        pipe_code: 'analyze_findings',
        inputs: reportInputs,
      }).expect(200);
      expect(response.body.pipe_output.working_memory.root.main_stuff.concept.code).to.equal('ReportStructure');
      expect(response.body.pipe_output.working_memory.root).to.not.have.property('report');
    });

    it('should resolve the cross-package reference of doc_summarizer to the sibling documents package', async () => {
      const document = {
        concept: 'native.Document',
        content: {
          url: `data:application/pdf;base64,${readFileSync(SUMMARIZER_PDF).toString('base64')}`,
          mime_type: 'application/pdf',
        },
      };
      const response = await execute({
        method_ref: 'github.com/pipelex/methods/doc_summarizer@v0.1.0',
        inputs: { document },
      }).expect(200);
      expect(response.body.state).to.equal('COMPLETED');
      expect(response.body.pipe_output.working_memory.root.pages.concept.code).to.equal('Page');
      expect(response.body.method_provenance).to.include({ package_name: 'doc_summarizer', package_version: '0.1.3' });
    });

    it('should keep method_provenance off inline runs', async () => {
      const inline = await execute({
        mthds_contents: [
          readFileSync(new URL('../../../shared/corpus/methods/report_writer/bundle.mthds', import.meta.url), 'utf8'),
        ],
        inputs: reportInputs,
      }).expect(200);
      expect(inline.body).to.not.have.property('method_provenance');
    });
  });

  describe('validate by address', () => {
    it('should validate report_writer at each tag with the sources of that tag and the manifest main_pipe as default', async () => {
      const first = await validate({ method_ref: `${REPORT}@v0.1.0` }).expect(200);
      const second = await validate({ method_ref: `${REPORT}@v0.2.0` }).expect(200);
      expect(first.body.is_valid).to.equal(true);
      expect(second.body.is_valid).to.equal(true);
      expect(first.body.default_pipe_ref).to.equal('report_writing.write_report');
      expect(first.body.mthds_contents).to.have.length(1);
      expect(first.body.mthds_contents[0]).to.not.include('(v0.2)');
      expect(second.body.mthds_contents[0]).to.include('(v0.2)');
    });

    it('should let a run read the documents its package ships, by package-relative path', async () => {
      const response = await execute({
        method_ref: 'github.com/acme/reader@v1.0.0',
        inputs: { document: { concept: 'Document', content: { url: 'docs/contract.pdf' } } },
      }).expect(200);
      expect(response.body.state).to.equal('COMPLETED');
      const pages = response.body.pipe_output.working_memory.root.main_stuff.content.items as {
        text_and_images: { text: { text: string } };
      }[];
      expect(pages).to.have.length(3);
      expect(pages[0]!.text_and_images.text.text.startsWith('MASTER SERVICES AGREEMENT')).to.equal(true);
      const missing = await execute({
        method_ref: 'github.com/acme/reader@v1.0.0',
        inputs: { document: { concept: 'Document', content: { url: 'requirements.txt' } } },
      }).expect(422);
      expect(missing.body.error_type).to.equal('StuffFactoryError');
      expect(missing.body.detail).to.include('its files: docs/contract.pdf)');
    });

    it("should take the manifest's main_pipe over the bundle's as the default pipe and as the graph's pipe", async () => {
      const response = await validate({ method_ref: 'github.com/acme/twomains@v1.0.0' }).expect(200);
      expect(response.body.default_pipe_ref).to.equal('greeting.shout');
      expect(response.body.graph_spec.pipeline_ref).to.deep.equal({
        domain: 'greeting',
        main_pipe: 'shout',
        entrypoint: null,
      });
      expect(response.body.graph_spec.nodes[0].pipe_code).to.equal('shout');
    });

    it('should validate doc_summarizer with its sibling package loaded', async () => {
      const response = await validate({ method_ref: 'github.com/pipelex/methods/doc_summarizer@v0.1.0' }).expect(200);
      expect(response.body.is_valid, JSON.stringify(response.body).slice(0, 300)).to.equal(true);
      expect(response.body.default_pipe_ref).to.equal('document_summarization.summarize_document');
      expect(response.body.mthds_contents).to.have.length(2);
      expect(response.body.pipe_io_contracts).to.have.property('documents.extract_text_pages');
    });

    it('should answer a resolution failure with a problem, never an is_valid:false verdict', async () => {
      const response = await validate({ method_ref: 'github.com/pipelex/methods/nope@v0.1.0' }).expect(404);
      expect(response.body).to.not.have.property('is_valid');
      expect(response.body.error_type).to.equal('MethodPackageNotFoundError');
    });
  });

  describe('queue mode (bullmq, in-process workers, real Redis)', () => {
    it('should carry the provenance through the job: on the blocking result, the start acknowledgement and the result the worker stores', async () => {
      const deployment = startQueueDeployment({ environment: repos.environment(cacheDir) });
      try {
        const expected = {
          address: REPORT,
          tag: 'v0.1.0',
          commit_sha: repos.commits.v010,
          package_name: 'report_writer',
          package_version: '0.1.3',
        };
        const executed = await request(deployment.app)
          .post('/v1/execute')
          .send({ method_ref: `${REPORT}@v0.1.0`, inputs: reportInputs })
          .expect(200);
        expect(executed.body.method_provenance).to.deep.equal(expected);
        const before = { fetches: repos.server.fetchCount(), contacts: repos.server.contactCount() };
        const ack = await request(deployment.app)
          .post('/v1/start')
          .send({ method_ref: `${REPORT}@v0.1.0`, inputs: reportInputs, pipeline_run_id: 'by-address-1' })
          .expect(202);
        expect(ack.body.method_provenance).to.deep.equal(expected);
        await pollUntil(
          () =>
            request(deployment.app)
              .get('/v1/runs/by-address-1/status')
              .then((response) => response.body as { status: string }),
          (body) => body.status === 'COMPLETED',
        );
        const stored = await deployment.backend.registry.get('by-address-1');
        expect(stored?.result?.method_provenance).to.deep.equal(expected);
        // The API reuses the commit it resolved for the execute (within METHOD_REF_RESOLVE_TTL_SECONDS) and the clone
        // it cached: no request reaches the git server; the worker runs from the job payload.
        expect({
          fetches: repos.server.fetchCount() - before.fetches,
          contacts: repos.server.contactCount() - before.contacts,
        }).to.deep.equal({ fetches: 0, contacts: 0 });
      } finally {
        await deployment.close();
      }
    });

    it('should keep method_provenance null on the acknowledgement of an inline run', async () => {
      const deployment = startQueueDeployment({ environment: repos.environment(cacheDir) });
      try {
        const inline = readFileSync(
          new URL('../../../shared/corpus/methods/report_writer/bundle.mthds', import.meta.url),
          'utf8',
        );
        const ack = await request(deployment.app)
          .post('/v1/start')
          .send({ mthds_contents: [inline], inputs: reportInputs })
          .expect(202);
        expect(ack.body.method_provenance).to.equal(null);
      } finally {
        await deployment.close();
      }
    });
  });

  describe('dependencies and tooling', () => {
    it('should fetch a manifest [dependencies] entry through the same machinery and resolve its alias references', async () => {
      const response = await validate({ method_ref: 'github.com/acme/consumer@v1.0.0' }).expect(200);
      expect(response.body.is_valid, JSON.stringify(response.body).slice(0, 400)).to.equal(true);
      expect(response.body.default_pipe_ref).to.equal('consumer.read_pages');
      expect(response.body.pipe_io_contracts).to.have.property('documents.extract_text_pages');
    });

    it('should fetch a package outside the repository by the address a reference names, at HEAD', async () => {
      const response = await validate({ method_ref: 'github.com/acme/outsider@v1.0.0' }).expect(200);
      expect(response.body.is_valid, JSON.stringify(response.body).slice(0, 400)).to.equal(true);
      expect(response.body.pipe_io_contracts).to.have.property('documents.extract_text_pages');
      const { fetcher } = createMethodFetcher(
        loadSettings(repos.environment(cacheDir)),
        createLogger('silent', 'test'),
      );
      const fetched = await fetcher.fetch('github.com/acme/outsider@v1.0.0', 'run');
      expect(fetched.sources.map((source) => source.source)).to.deep.equal([
        'outsider.mthds',
        'github.com/pipelex/methods/documents/documents.mthds',
      ]);
    });

    it('should refuse a call to a pipe the fetched package does not export, on validate and on execute', async () => {
      const item = {
        category: 'pipe_validation',
        message:
          "Pipe 'call_private', field 'steps[0].pipe': 'github.com/acme/gated/gated->gated.greet_privately' calls pipe 'greet_privately', which is not exported by domain 'gated' of its package. Add it to [exports.gated] pipes in that package's METHODS.toml, or call an exported pipe.",
        error_type: 'unexported_pipe_dependency',
        source: 'caller.mthds',
        pipe_code: 'call_private',
        domain_code: 'caller',
        field_path: 'pipe.call_private.steps[0].pipe',
        field_name: 'pipe',
        missing_pipe_code: 'github.com/acme/gated/gated->gated.greet_privately',
      };
      const report = await validate({ method_ref: 'github.com/acme/caller@v1.0.0' }).expect(200);
      expect(report.body.is_valid).to.equal(false);
      expect(report.body.validation_errors).to.deep.equal([item]);
      const run = await execute({ method_ref: 'github.com/acme/caller@v1.0.0', inputs: { name: 'Ada' } }).expect(422);
      expect(run.body.error_type).to.equal('ValidateBundleError');
      expect(run.body.validation_errors).to.deep.equal([item]);
      const { fetcher } = createMethodFetcher(
        loadSettings(repos.environment(cacheDir)),
        createLogger('silent', 'test'),
      );
      const fetched = await fetcher.fetch('github.com/acme/gated@v1.0.0', 'run');
      expect(fetched.exports).to.deep.equal({ gated: ['greet_publicly'] });
    });

    it('should refuse packages that call each other by address with 422 MethodFetchError naming the cycle', async () => {
      const response = await validate({ method_ref: 'github.com/acme/ping@v1.0.0' }).expect(422);
      expect(response.body.error_type).to.equal('MethodFetchError');
      expect(response.body.detail).to.equal(
        'Method packages depend on each other in a cycle: github.com/acme/ping/ping -> github.com/acme/pong/pong -> github.com/acme/ping/ping.',
      );
    });

    it('should name sibling and dependency sources by their paths', async () => {
      const { fetcher } = createMethodFetcher(
        loadSettings(repos.environment(cacheDir)),
        createLogger('silent', 'test'),
      );
      const sibling = await fetcher.fetch('github.com/pipelex/methods/doc_summarizer@v0.1.0', 'run');
      expect(sibling.sources.map((source) => source.source)).to.deep.equal([
        'bundle.mthds',
        '../documents/documents.mthds',
      ]);
      const dependency = await fetcher.fetch('github.com/acme/consumer@v1.0.0', 'run');
      expect(dependency.sources.map((source) => source.source)).to.deep.equal([
        'consumer.mthds',
        'github.com/pipelex/methods/documents/documents.mthds',
      ]);
      expect(dependency.mainPipe).to.equal('read_pages');
    });

    it('should read only the .mthds files for tooling routes (no Python gate)', async () => {
      const { fetcher } = createMethodFetcher(
        loadSettings(repos.environment(cacheDir)),
        createLogger('silent', 'test'),
      );
      const fetched = await fetcher.fetch('github.com/acme/pytools@v1.0.0', 'tooling');
      expect(fetched.sources.map((source) => source.source)).to.deep.equal(['hello.mthds']);
      expect(fetched.mainPipe).to.equal('say_hello');
    });
  });

  describe('tooling routes by address', () => {
    it('should resolve a package at a tag into a crate with its sibling package, and the fingerprint should follow the tag', async () => {
      const first = await request(app)
        .post('/v1/resolve')
        .send({ method_ref: `${REPORT}@v0.1.0` })
        .expect(200);
      expect(first.body.is_valid).to.equal(true);
      expect(first.body.crate.source_map).to.include({ 'report_writing.write_report': 'bundle.mthds' });
      const again = await request(app)
        .post('/v1/resolve')
        .send({ method_ref: `${REPORT}@v0.1.0` })
        .expect(200);
      expect(again.body.crate.fingerprint).to.equal(first.body.crate.fingerprint);
      const next = await request(app)
        .post('/v1/resolve')
        .send({ method_ref: `${REPORT}@v0.2.0` })
        .expect(200);
      expect(next.body.crate.fingerprint).to.not.equal(first.body.crate.fingerprint);
      const summarizer = await request(app)
        .post('/v1/resolve')
        .send({ method_ref: 'github.com/pipelex/methods/doc_summarizer@v0.1.0' })
        .expect(200);
      expect(summarizer.body.crate.source_map).to.include({
        'documents.extract_text_pages': '../documents/documents.mthds',
      });
    });

    it('should default build/inputs to the manifest main_pipe and stamp codegen with the crate fingerprint', async () => {
      const inputs = await request(app)
        .post('/v1/build/inputs')
        .send({ method_ref: `${REPORT}@v0.1.0` })
        .expect(200);
      expect(inputs.body).to.include({
        is_valid: true,
        pipe_ref: 'report_writing.write_report',
        format: 'json',
        explicit: false,
      });
      expect(inputs.body).to.not.have.property('requested_pipe_ref');
      const resolved = await request(app)
        .post('/v1/resolve')
        .send({ method_ref: `${REPORT}@v0.1.0` })
        .expect(200);
      const codegen = await request(app)
        .post('/v1/codegen')
        .send({ method_ref: `${REPORT}@v0.1.0`, kind: 'types', target: 'python-pydantic' })
        .expect(200);
      expect(codegen.body.crate_fingerprint).to.equal(resolved.body.crate.fingerprint);
      expect(codegen.body.artifacts[0].content).to.include(`# crate_fingerprint: ${resolved.body.crate.fingerprint}`);
    });
  });

  describe('errors', () => {
    const cases: [string, string, number, string, string][] = [
      ['a registry form', 'report_writer', 501, 'MethodRefNotSupported', 'registry-form'],
      ['a registry form with a version', 'pipelex/report_writer@1.0.0', 501, 'MethodRefNotSupported', 'registry-form'],
      [
        'a host outside METHOD_REF_ALLOWED_HOSTS',
        'example.com/acme/tools',
        422,
        'MethodRefParseError',
        "only 'github.com/...'",
      ],
      [
        'an address without a repository',
        'github.com/acme',
        422,
        'MethodRefParseError',
        "needs at least '{host}/<owner>/<repo>'",
      ],
      ['a malformed tag', 'github.com/acme/tools@-x', 422, 'MethodRefParseError', "Invalid tag '-x'"],
      ['a bad path segment', 'github.com/acme/to ols', 422, 'MethodRefParseError', 'invalid path segment'],
      ['an unknown tag', `${REPORT}@v9.9.9`, 422, 'MethodFetchError', "'v9.9.9' in method reference"],
      ['a branch name as tag', `${REPORT}@develop`, 422, 'MethodFetchError', 'does not name a git tag'],
      [
        'an unknown repository',
        'github.com/acme/missing@v1.0.0',
        422,
        'MethodFetchError',
        'Could not reach the repository',
      ],
      [
        'no matching package',
        'github.com/pipelex/methods/nope@v0.1.0',
        404,
        'MethodPackageNotFoundError',
        'Packages it contains: github.com/Pipelex/methods/documents, github.com/pipelex/methods/compliance_checker',
      ],
      [
        'a repository address without a root manifest',
        'github.com/pipelex/methods@v0.1.0',
        404,
        'MethodPackageNotFoundError',
        "No package at address 'github.com/pipelex/methods'",
      ],
      [
        'a repository without manifests',
        'github.com/acme/empty@v1.0.0',
        404,
        'MethodPackageNotFoundError',
        'No package (no METHODS.toml) found',
      ],
      [
        'two manifests with one identity',
        'github.com/acme/twins/twin@v1.0.0',
        422,
        'MethodPackageAmbiguityError',
        'github.com/acme/twins/twin (a/), github.com/acme/twins/twin (b/)',
      ],
      [
        'more files than the package limit',
        'github.com/acme/big/many@v1.0.0',
        422,
        'MethodPackageTooLargeError',
        'has 47 files, more than the 40-file limit',
      ],
      [
        'more bytes than the package limit',
        'github.com/acme/big/heavy@v1.0.0',
        422,
        'MethodPackageTooLargeError',
        'more than the 512 KiB limit',
      ],
      [
        'more manifests than the scan limit',
        'github.com/acme/crowd/p0x@v1.0.0',
        422,
        'MethodPackageTooLargeError',
        '9 METHODS.toml files, more than the 8',
      ],
      [
        'a package shipping Python',
        'github.com/acme/pytools@v1.0.0',
        403,
        'CustomCodeRequiresSandbox',
        "Method package 'github.com/acme/pytools/pytools' ships custom Python (.py)",
      ],
      [
        'a package declaring structure classes',
        'github.com/acme/structs@v1.0.0',
        403,
        'MethodStructuresRefusedError',
        'structures/invoice.py defines Invoice',
      ],
    ];
    for (const [label, ref, status, errorType, detail] of cases) {
      it(`should answer ${status} ${errorType} on execute and validate for ${label}`, async () => {
        for (const response of [await execute({ method_ref: ref }), await validate({ method_ref: ref })]) {
          expect(response.status, JSON.stringify(response.body)).to.equal(status);
          expect(response.headers['content-type']).to.match(/^application\/problem\+json/);
          expect(response.body.error_type).to.equal(errorType);
          expect(response.body.detail).to.include(detail);
        }
      });
    }

    it('should refuse method_ref with mthds_contents (422 ValidationError)', async () => {
      const response = await execute({ method_ref: `${REPORT}@v0.1.0`, mthds_contents: ['domain = "x"'] }).expect(422);
      expect(response.body).to.include({
        error_type: 'ValidationError',
        detail: 'method_ref and inline mthds_contents are mutually exclusive; send one or the other.',
      });
    });

    it('should refuse a loopback clone host unless METHOD_REF_ALLOW_PRIVATE_HOSTS is on (SSRF)', async () => {
      const guarded = buildTestApp({ ...repos.environment(cacheDir), METHOD_REF_ALLOW_PRIVATE_HOSTS: 'false' });
      const response = await request(guarded)
        .post('/v1/execute')
        .send({ method_ref: `${REPORT}@v0.1.0` })
        .expect(422);
      expect(response.body.error_type).to.equal('MethodFetchError');
      expect(response.body.detail).to.include('127.0.0.1');
    });

    it('should keep the detail of method errors under strict disclosure', async () => {
      const strict = buildTestApp({ ...repos.environment(cacheDir), ERROR_DISCLOSURE: 'strict' });
      const response = await request(strict)
        .post('/v1/execute')
        .send({ method_ref: 'github.com/pipelex/methods/nope@v0.1.0' })
        .expect(404);
      expect(response.body.detail).to.include('Packages it contains');
    });
  });

  describe('the clone cache', () => {
    it('should serve a second request for one commit from the cache (no second clone)', async () => {
      const tag = 'v0.3.0-cache';
      repos.freshTag(tag);
      const before = repos.server.fetchCount();
      await execute({ method_ref: `${REPORT}@${tag}`, inputs: reportInputs }).expect(200);
      expect(repos.server.fetchCount() - before).to.equal(1);
      await execute({ method_ref: `${REPORT}@${tag}`, inputs: reportInputs }).expect(200);
      await validate({ method_ref: `github.com/pipelex/methods/doc_summarizer@${tag}` }).expect(200);
      expect(repos.server.fetchCount() - before).to.equal(1);
    });

    it('should count clones, cache hits, failures and evictions in /metrics', async () => {
      const dir = tempDir('mthds-cache-metrics-');
      try {
        const counted = buildTestApp({ ...repos.environment(dir), MAX_METHOD_CACHE_CLONES: '1' });
        await request(counted)
          .post('/v1/validate')
          .send({ method_ref: `${REPORT}@v0.1.0` })
          .expect(200);
        await request(counted)
          .post('/v1/validate')
          .send({ method_ref: `${REPORT}@v0.1.0` })
          .expect(200);
        await request(counted)
          .post('/v1/validate')
          .send({ method_ref: `${REPORT}@v0.2.0` })
          .expect(200);
        await request(counted)
          .post('/v1/validate')
          .send({ method_ref: `${REPORT}@v9.9.9` })
          .expect(422);
        const metrics = (await request(counted).get('/metrics').expect(200)).text;
        expect(metrics).to.include('mthds_method_fetches_total{outcome="cloned"} 2');
        expect(metrics).to.include('mthds_method_fetches_total{outcome="cache_hit"} 1');
        expect(metrics).to.include('mthds_method_fetches_total{outcome="failed"} 1');
        expect(metrics).to.include('mthds_method_cache_evictions_total 1');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('should stop cloning a repository larger than the cache can hold, with 422 and nothing left behind', async () => {
      const dir = tempDir('mthds-cache-small-');
      try {
        const small = buildTestApp({ ...repos.environment(dir), MAX_METHOD_CACHE_TOTAL_KIB: '1024' });
        const response = await request(small)
          .post('/v1/validate')
          .send({ method_ref: 'github.com/acme/bulky/bulky@v1.0.0' })
          .expect(422);
        expect(response.body).to.include({
          error_type: 'MethodFetchError',
          detail:
            "The repository of method reference 'github.com/acme/bulky/bulky@v1.0.0' is larger than 1024 KiB (MAX_METHOD_CACHE_TOTAL_KIB), the most this server's clone cache holds; the clone was stopped.",
        });
        expect(readdirSync(path.join(dir, '.staging'))).to.deep.equal([]);
        expect(readdirSync(dir).filter((name) => /^[0-9a-f]{40}$/.test(name))).to.deep.equal([]);
        await request(buildTestApp(repos.environment(dir)))
          .post('/v1/validate')
          .send({ method_ref: 'github.com/acme/bulky/bulky@v1.0.0' })
          .expect(200);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('should make one clone for 20 concurrent requests of one commit', async () => {
      const tag = 'v0.4.0-burst';
      const sha = repos.freshTag(tag);
      const before = repos.server.fetchCount();
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => execute({ method_ref: `${REPORT}@${tag}`, inputs: reportInputs })),
      );
      expect(
        responses.map((response) => response.status),
        JSON.stringify(responses[0]!.body),
      ).to.deep.equal(Array(20).fill(200));
      expect(new Set(responses.map((response) => response.body.method_provenance.commit_sha))).to.deep.equal(
        new Set([sha]),
      );
      expect(repos.server.fetchCount() - before).to.equal(1);
    });

    it('should share the cache directory with a second process: one clone, both answer with the same commit', async () => {
      const tag = 'v0.5.0-shared';
      const sha = repos.freshTag(tag);
      const { api, baseUrl } = await spawnApi({ ...repos.environment(cacheDir), INFERENCE_PROFILE: 'mock' });
      try {
        const before = repos.server.fetchCount();
        const body = { method_ref: `${REPORT}@${tag}`, inputs: reportInputs };
        const responses = await Promise.all(
          Array.from({ length: 6 }, (_, index) =>
            index % 2 === 0 ? execute(body) : request(baseUrl).post('/v1/execute').send(body),
          ),
        );
        expect(
          responses.map((response) => response.status),
          JSON.stringify(responses.map((response) => response.body.detail)),
        ).to.deep.equal(Array(6).fill(200));
        expect(new Set(responses.map((response) => response.body.method_provenance.commit_sha))).to.deep.equal(
          new Set([sha]),
        );
        expect(repos.server.fetchCount() - before).to.equal(1);
      } finally {
        await api.stop();
      }
    });
  });
});
