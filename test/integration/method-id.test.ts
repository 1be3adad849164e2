/**
 * `method_id`, the stored-method selector (docs/methods.md#method_id), on a real PostgreSQL, in process, direct mode
 * with mock inference: what `/v1/execute` runs for a bare id, `@draft` and `@<n>`; a bare id beside inline sources
 * (the inline sources run); the refusals of the source rules; `/v1/validate`, `/v1/resolve`, `/v1/codegen` and
 * `/v1/pipe-io` by id; and a deployment without a catalog, which refuses the key.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import {
  type Caller,
  callerOf,
  greetingBundle,
  methodNotFound,
  organizationKey,
  pinnedProblem,
} from '../helpers/catalog-callers.js';
import { buildControlPlaneApp, closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const ADMIN = 'a-method-id-admin-key';

/** A bundle whose one pipe asks the mock model with `prompt`, so a run's answer tells which bundle ran. */
function promptBundle(prompt: string): string {
  return [
    'domain = "echo"',
    'main_pipe = "answer"',
    '',
    '[pipe.answer]',
    'type = "PipeLLM"',
    'description = "Answer"',
    'inputs = { name = "Text" }',
    'output = "Text"',
    `prompt = "${prompt} $name."`,
    '',
  ].join('\n');
}

/** What the mock model answers to a `promptBundle(prompt)` run for the name Ada. */
function answered(prompt: string): string {
  return `[mock inference] Response to: "${prompt} Ada."`;
}

describe('method_id on the run and tooling routes (HTTP, direct mode, PostgreSQL)', function () {
  afterEach(closeControlPlaneApps);
  this.timeout(60_000);
  const suite = useTestControlPlane();
  let app: Express;
  let call: Caller;
  let other: Caller;

  before(async () => {
    app = buildControlPlaneApp(suite.database, { AUTH_MODE: 'api_key', API_KEY: ADMIN });
    const admin = callerOf(app, ADMIN);
    call = callerOf(app, (await organizationKey(admin, 'Runner')).key);
    other = callerOf(app, (await organizationKey(admin, 'Other')).key);
  });

  async function store(mthds: string, python?: string): Promise<string> {
    const created = await call
      .post('/v1/methods', { name: 'by-id', mthds, ...(python === undefined ? {} : { python }) })
      .expect(201);
    return created.body.method_id as string;
  }

  const run = (caller: Caller, body: object) => caller.post('/v1/execute', { inputs: { name: 'Ada' }, ...body });
  /** The text of a finished run's main stuff. */
  const text = (body: { pipe_output: { working_memory: { root: { main_stuff: { content: { text: string } } } } } }) =>
    body.pipe_output.working_memory.root.main_stuff.content.text;

  describe('when /v1/execute names a stored method alone', () => {
    it('should run the draft of a method never published, then its latest version, @draft and @<n>', async () => {
      const id = await store(promptBundle('First hello to'));
      expect(text((await run(call, { method_id: id }).expect(200)).body)).to.equal(answered('First hello to'));

      const firstDraft = (await call.get(`/v1/methods/${id}`).expect(200)).body;
      await call.post(`/v1/methods/${id}/publish`, { expected_draft_updated_at: firstDraft.updated_at }).expect(200);
      await call.put(`/v1/methods/${id}/draft`, { mthds: promptBundle('Second hello to') }).expect(200);

      expect(text((await run(call, { method_id: id }).expect(200)).body)).to.equal(answered('First hello to'));
      expect(text((await run(call, { method_id: `${id}@1` }).expect(200)).body)).to.equal(answered('First hello to'));
      expect(text((await run(call, { method_id: `${id}@draft` }).expect(200)).body)).to.equal(
        answered('Second hello to'),
      );
      const missing = await run(call, { method_id: `${id}@2` }).expect(404);
      expect(pinnedProblem(missing.body)).to.deep.equal({
        type: '/errors/method-version-not-found-error/',
        title: 'Method version not found',
        status: 404,
        detail: `Method '${id}' has no published version 2.`,
        error_type: 'MethodVersionNotFoundError',
        code: 'method_version_not_found',
        error_domain: 'input',
        retryable: false,
      });
    });

    it('should refuse a version of a method never published with 409 method_not_published', async () => {
      const id = await store(promptBundle('Hi'));
      const refused = await run(call, { method_id: `${id}@1` }).expect(409);
      expect(pinnedProblem(refused.body)).to.deep.equal({
        type: '/errors/method-not-published-error/',
        title: 'Method not published',
        status: 409,
        detail: `Method '${id}' was never published: it has a draft only, which '${id}@draft' names.`,
        error_type: 'MethodNotPublishedError',
        code: 'method_not_published',
        error_domain: 'input',
        retryable: false,
      });
    });

    it('should answer an unknown id and another organization’s method alike, 404 not_found', async () => {
      const id = await store(promptBundle('Hi'));
      const foreign = await run(other, { method_id: id }).expect(404);
      expect(pinnedProblem(foreign.body)).to.deep.equal(methodNotFound(id));
      const unknown = await run(call, { method_id: 'mt_AAAAAAAAAAAAAAAA' }).expect(404);
      expect(unknown.body.code).to.equal('not_found');
    });

    it('should refuse to run a method with Python files (403), as a bundle with Python is', async () => {
      const id = await store(promptBundle('Hi'), JSON.stringify([{ name: 'tool.py', content: 'X = 1\n' }]));
      const refused = await run(call, { method_id: id }).expect(403);
      expect(refused.body).to.include({
        error_type: 'CustomCodeRequiresSandbox',
        detail: `Method '${id}' has custom Python files; running it requires a sandbox-hosted deployment.`,
      });
      await call.post('/v1/validate', { method_id: id }).expect(403);
      const resolved = await call.post('/v1/resolve', { method_id: id }).expect(200);
      expect(resolved.body.is_valid).to.equal(true);
    });
  });

  describe('when /v1/execute names a stored method beside inline sources', () => {
    it('should run the inline sources, the method being only linked', async () => {
      const id = await store(promptBundle('Stored'));
      const inline = promptBundle('Inline');
      const ran = await run(call, { method_id: id, mthds_contents: [inline] }).expect(200);
      expect(text(ran.body)).to.equal(answered('Inline'));
      const bundled = await run(call, { method_id: id, files: { 'echo.mthds': inline } }).expect(200);
      expect(text(bundled.body)).to.equal(answered('Inline'));
      const unknown = await run(call, { method_id: 'mt_AAAAAAAAAAAAAAAA', mthds_contents: [inline] }).expect(404);
      expect(unknown.body.code).to.equal('not_found');
    });

    it('should refuse a version suffix beside inline sources, a method_ref beside it, and a malformed id (422)', async () => {
      const id = await store(promptBundle('Stored'));
      const cases: [object, string][] = [
        [
          { method_id: `${id}@draft`, mthds_contents: [promptBundle('Inline')] },
          `Beside inline sources, method_id only links the run to its method, so it takes the bare id '${id}': the inline sources run, not a version of the method.`,
        ],
        [
          { method_id: id, method_ref: 'github.com/acme/methods/echo' },
          'method_ref and method_id are mutually exclusive: a method_ref run carries its own provenance; send one or the other.',
        ],
        [
          { method_id: 'greeter' },
          'body.method_id: must be a stored method’s id `mt_…`, bare or with `@draft` or `@<n>`',
        ],
        [
          { method_id: `${id}@0` },
          'body.method_id: must be a stored method’s id `mt_…`, bare or with `@draft` or `@<n>`',
        ],
      ];
      for (const [body, detail] of cases) {
        const refused = await run(call, body).expect(422);
        expect(refused.body).to.include({ error_type: 'ValidationError', detail });
      }
    });
  });

  describe('when /v1/start names a stored method (queue mode)', () => {
    it('should acknowledge which content runs (method_version), then run it', async () => {
      const deployment = startQueueDeployment({
        environment: { AUTH_MODE: 'api_key', API_KEY: ADMIN },
        controlPlane: suite.database,
      });
      try {
        const queued = callerOf(deployment.app, (await organizationKey(callerOf(deployment.app, ADMIN), 'Queue')).key);
        const created = await queued.post('/v1/methods', { name: 'q', mthds: promptBundle('Queued') }).expect(201);
        const id = created.body.method_id as string;
        const start = (body: object) => queued.post('/v1/start', { inputs: { name: 'Ada' }, ...body }).expect(202);
        const draft = await start({ method_id: id });
        expect(draft.body).to.include({ state: 'STARTED', method_version: 'draft' });
        await queued.post(`/v1/methods/${id}/publish`, {}).expect(200);
        expect((await start({ method_id: id })).body.method_version).to.equal(1);
        expect((await start({ method_id: `${id}@1` })).body.method_version).to.equal(1);
        const linked = await start({ method_id: id, mthds_contents: [promptBundle('Inline')] });
        expect(linked.body).to.not.have.property('method_version');
        const results = await pollUntil(
          () => queued.get(`/v1/runs/${draft.body.pipeline_run_id}/results`),
          (response) => response.status !== 202,
        );
        expect(results.status).to.equal(200);
        expect(text(results.body)).to.equal(answered('Queued'));
      } finally {
        await deployment.close();
      }
    });
  });

  describe('when a tooling route names a stored method', () => {
    it('should validate, resolve, codegen and describe (pipe-io) its bundles as if sent inline', async () => {
      const bundle = greetingBundle('Tooling');
      const id = await store(bundle);
      const byId = await call.post('/v1/validate', { method_id: id }).expect(200);
      const inline = await call.post('/v1/validate', { mthds_contents: [bundle], mthds_sources: [id] }).expect(200);
      const { graph_spec: _byIdGraph, ...byIdReport } = byId.body;
      const { graph_spec: _inlineGraph, ...inlineReport } = inline.body;
      expect(byIdReport).to.deep.equal(inlineReport);
      expect(byId.body.is_valid).to.equal(true);

      const resolved = await call.post('/v1/resolve', { method_id: id }).expect(200);
      const resolvedInline = await call.post('/v1/resolve', { files: [{ content: bundle, source: id }] }).expect(200);
      expect(resolved.body).to.deep.equal(resolvedInline.body);

      const codegen = { kind: 'types', target: 'ts-zod' };
      const generated = await call.post('/v1/codegen', { method_id: `${id}@draft`, ...codegen }).expect(200);
      const generatedInline = await call
        .post('/v1/codegen', { files: [{ content: bundle, source: id }], ...codegen })
        .expect(200);
      expect(generated.body).to.deep.equal(generatedInline.body);

      const described = await call.post('/v1/pipe-io', { method_id: id, include_files: true }).expect(200);
      const describedInline = await call
        .post('/v1/pipe-io', { files: [{ content: bundle, source: id }], include_files: true })
        .expect(200);
      expect(described.body).to.deep.equal(describedInline.body);
      expect(described.body.files).to.deep.equal([{ content: bundle, source: id }]);
    });

    it('should answer what it cannot resolve with a problem, never an invalid verdict', async () => {
      const id = await store(greetingBundle());
      const unknown = await call.post('/v1/validate', { method_id: 'mt_AAAAAAAAAAAAAAAA' }).expect(404);
      expect(unknown.body).to.include({ error_type: 'MethodNotFoundError', code: 'not_found' });
      const foreign = await other.post('/v1/resolve', { method_id: id }).expect(404);
      expect(foreign.body.code).to.equal('not_found');
      const both = await call.post('/v1/validate', { method_id: id, mthds_contents: [greetingBundle()] }).expect(422);
      expect(both.body.detail).to.equal(
        'body: Value error, provide exactly one of `mthds_contents`, `method_ref` or `method_id`',
      );
      const sources = await call.post('/v1/validate', { method_id: id, mthds_sources: ['a.mthds'] }).expect(422);
      expect(sources.body.detail).to.equal(
        "body.mthds_sources: mthds_sources accompanies inline mthds_contents; a stored method's sources are its own file names",
      );
      const twice = await call
        .post('/v1/resolve', { method_id: id, files: [{ content: greetingBundle() }] })
        .expect(422);
      expect(twice.body.detail).to.equal(
        'body: Value error, provide exactly one of `files`, `method_ref` or `method_id`',
      );
      const unpublished = await call.post('/v1/codegen', { method_id: `${id}@1`, kind: 'types', target: 'ts-zod' });
      expect(unpublished.status).to.equal(409);
      expect(unpublished.body.code).to.equal('method_not_published');
      const build = await call.post('/v1/build/inputs', { method_id: id }).expect(422);
      expect(build.body.detail).to.equal('body: Value error, provide exactly one of `files` or `method_ref`');
    });
  });

  describe('when the deployment keeps no catalog', () => {
    it('should refuse method_id with a 422 naming the key, and serve no catalog route', async () => {
      const bare = buildTestApp();
      const detail =
        'method_id: this deployment keeps no methods catalog (it has no control plane); send the bundle inline (mthds_contents, files) or by address (method_ref).';
      const executed = await request(bare).post('/v1/execute').send({ method_id: 'mt_AAAAAAAAAAAAAAAA' }).expect(422);
      expect(executed.body).to.include({ error_type: 'ValidationError', detail });
      const validated = await request(bare).post('/v1/validate').send({ method_id: 'mt_AAAAAAAAAAAAAAAA' }).expect(422);
      expect(validated.body).to.include({ error_type: 'ValidationError', detail });
      const listed = await request(bare).get('/v1/methods').expect(404);
      expect(listed.body.error_type).to.equal('NotFound');
      expect(listed.body).to.not.have.property('code');
      expect((await request(bare).get('/v1/version').expect(200)).body).to.not.have.property('extensions');
    });
  });
});
