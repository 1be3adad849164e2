import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { BEARER_SCHEME } from '../../api/openapi/openapi-document.js';
import { type ControlPlaneDatabase, openDatabase } from '../../shared/database/index.js';
import { buildControlPlaneApp, closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { pollUntil } from '../helpers/poll.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { buildTestApp } from '../helpers/test-app.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The parts of an OpenAPI 3.1 document these tests read. */
interface Operation {
  operationId: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; schema: unknown }[];
  requestBody?: { content: { 'application/json': { schema: unknown; example: unknown } } };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface OpenApi {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

/**
 * Routes the app serves that are pages for people, not API routes, so not in the document: the API reference page
 * and its files, the error pages (docs/errors.md#error-pages), Bull Board
 * (docs/api.md#api-reference-docs-and-get-v1openapijson) and the method console (docs/console.md).
 */
const PAGES = /^get \/docs(\/|$)|^\w+ \/admin\/queues(\/|$)|^get \/errors(\/|$)|^\w+ \/console(\/|$)/;

/** A body each route with a body must refuse: the document's schema rejects it, and the route answers 422. */
const INVALID_BODIES: Record<string, unknown> = {
  validate_mthds_v1_validate_post: { mthds_contents: 'one bundle, not a list' },
  resolve_mthds_v1_resolve_post: { files: [{ source: 'a file without content' }] },
  codegen_mthds_v1_codegen_post: { method_ref: 'github.com/o/r', kind: 'types', target: 'cobol' },
  pipe_io_v1_pipe_io_post: { files: [{ content: 'domain = "d"' }], all_pipes: 'yes' },
  build_inputs_v1_build_inputs_post: { method_ref: 'github.com/o/r', format: 'yaml' },
  build_output_v1_build_output_post: { method_ref: 'github.com/o/r', format: 'xml' },
  build_runner_v1_build_runner_post: { method_ref: 'github.com/o/r', allow_signatures: 'yes' },
  build_concept_v1_build_concept_post: { spec: 'Greeting' },
  build_pipe_spec_v1_build_pipe_spec_post: { pipe_type: '', spec: {} },
  lint_mthds_v1_lint_post: { source: 'greet.mthds' },
  format_mthds_v1_format_post: { content: 42 },
  execute_v1_execute_post: { mthds_contents: 'one bundle, not a list' },
  start_v1_start_post: { pipeline_run_id: '' },
  execute_pipeline_execute_post: { mthds_content: ['one bundle, not a string'] },
  start_pipeline_start_post: { mthds_content: 'domain = "x"', output_multiplicity: 'several' },
  validate_mthds_validate_post: { mthds_content: 42 },
  upload_v1_upload_post: { filename: '', data: 'aGk=' },
  upload_grant_v1_upload_grant_post: { filename: 'cv.pdf', size: -1 },
  resolve_storage_url_v1_resolve_storage_url_post: { uri: '' },
  resolve_storage_urls_v1_resolve_storage_url_bulk_post: { uris: 'pipelex-storage://one/not/a-list' },
};

type Layer = {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: unknown;
};

/** The methods a route can be documented under (a catch-all `all` handler, `_all`, answers every method). */
const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/**
 * Every `method path` the app's router serves, mounted routers included, in OpenAPI's path syntax. (A mounted Express
 * app, Bull Board's, hides its routes from the walk: it is a page anyway.)
 */
function servedRoutes(app: Express): string[] {
  const served: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = `${prefix}${layer.route.path}`.replace(/(.)\/$/, '$1').replace(/[:*](\w+)/g, '{$1}');
        for (const method of Object.keys(layer.route.methods)) {
          if (HTTP_METHODS.has(method)) served.push(`${method} ${path}`);
        }
      } else if (layer.handle.stack) {
        walk(layer.handle.stack, layer.rawPath === '/' ? prefix : `${prefix}${String(layer.rawPath)}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return served;
}

function documentedRoutes(document: OpenApi): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method} ${path}`),
  );
}

function operations(document: OpenApi): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, string, Operation] => [method, path, operation]),
  );
}

/** Validators of the document's schemas, `$ref`s resolved against the document. */
function schemaValidators(document: OpenApi) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const pointer = (parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
  const cache = new Map<string, ValidateFunction>();
  return (...parts: string[]): ValidateFunction => {
    const ref = `openapi.json#/${pointer(parts)}`;
    let validate = cache.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      cache.set(ref, validate);
    }
    return validate;
  };
}

/** Assert an answer is documented for its route: its status, and its body against that status's schema. */
function expectDocumented(
  document: OpenApi,
  validator: ReturnType<typeof schemaValidators>,
  method: string,
  path: string,
  response: request.Response,
): void {
  const responses = document.paths[path]![method]!.responses;
  expect(Object.keys(responses), `${method} ${path} answered ${response.status}`).to.include(String(response.status));
  const mediaType = String(response.headers['content-type']).split(';')[0]!;
  const content = responses[String(response.status)]!.content;
  expect(Object.keys(content ?? {}), `${method} ${path} ${response.status} media type`).to.include(mediaType);
  const validate = validator(
    'paths',
    path,
    method,
    'responses',
    String(response.status),
    'content',
    mediaType,
    'schema',
  );
  const body = mediaType.endsWith('json') ? response.body : response.text;
  expect(validate(body), `${method} ${path} ${response.status}: ${JSON.stringify(validate.errors)}`).to.equal(true);
}

async function fetchDocument(app: Express, token?: string): Promise<OpenApi> {
  const call = request(app).get('/v1/openapi.json');
  if (token) call.set('Authorization', `Bearer ${token}`);
  const response = await call.expect(200).expect('Content-Type', 'application/json');
  return response.body as OpenApi;
}

describe('OpenAPI document (GET /v1/openapi.json)', function () {
  afterEach(closeControlPlaneApps);
  this.timeout(120000);

  describe('on a direct deployment', () => {
    let app: Express;
    let document: OpenApi;
    let validator: ReturnType<typeof schemaValidators>;

    before(async () => {
      app = buildTestApp();
      document = await fetchDocument(app);
      validator = schemaValidators(document);
    });

    it('should be a valid OpenAPI 3.1 document', async () => {
      const verdict = await new Validator().validate(document as unknown as Parameters<Validator['validate']>[0]);
      expect(verdict.errors ?? [], JSON.stringify(verdict.errors)).to.deep.equal([]);
      expect(verdict.valid).to.equal(true);
      expect(document.openapi).to.equal('3.1.0');
    });

    it('should describe exactly the API routes the app serves', () => {
      const served = servedRoutes(app).filter((route) => !PAGES.test(route));
      expect(documentedRoutes(document)).to.have.members(served);
      expect(served).to.include.members(['get /v1/models', 'post /v1/execute', 'get /', 'get /metrics']);
    });

    it('should name the operations, and the schemas of the routes the reference has, as the reference does', () => {
      expect(document.paths['/v1/execute']!['post']!.operationId).to.equal('execute_v1_execute_post');
      expect(document.paths['/v1/version']!['get']!.operationId).to.equal('get_version_v1_version_get');
      expect(document.paths['/v1/lint']!['post']!.requestBody!.content['application/json'].schema).to.deep.equal({
        $ref: '#/components/schemas/LintRequest',
      });
      expect(document.components.schemas).to.include.keys(
        'ProblemDocument',
        'PipelexVersionInfo',
        'PipelexApiExecuteResponse',
        'PipelexRunResultStart',
        'ValidReport',
        'InvalidReport',
        'LintResponse',
        'FormatResponse',
        'PipelexModelDeck',
      );
    });

    it('should list problem documents on every route: the catch-all 500, 413 on bodies, the route’s own', () => {
      for (const [method, path, operation] of operations(document)) {
        const problems = Object.entries(operation.responses).filter(([, response]) =>
          Object.keys(response.content ?? {}).includes('application/problem+json'),
        );
        if (path === '/health' || path === '/') expect(problems, path).to.deep.equal([]);
        else expect(Object.keys(operation.responses), `${method} ${path}`).to.include('500');
        if (operation.requestBody) expect(Object.keys(operation.responses), `${method} ${path}`).to.include('413');
        for (const [, response] of problems) {
          expect(response.content!['application/problem+json']!.schema).to.deep.equal({
            $ref: '#/components/schemas/ProblemDocument',
          });
        }
      }
      expect(Object.keys(document.paths['/v1/start']!['post']!.responses)).to.include.members(['400', '409', '422']);
      expect(Object.keys(document.paths['/v1/execute']!['post']!.responses)).to.include.members(['422', '429', '504']);
    });

    it('should not mention authentication when the deployment has none', () => {
      expect(document.components.securitySchemes ?? {}).to.deep.equal({});
      for (const [, path, operation] of operations(document)) {
        expect(operation.security, path).to.equal(undefined);
        expect(Object.keys(operation.responses), path).to.not.include('401');
      }
    });

    it('should have one invalid example per request body in these tests', () => {
      const withBodies = operations(document)
        .filter(([, , operation]) => operation.requestBody)
        .map(([, , operation]) => operation.operationId);
      expect(Object.keys(INVALID_BODIES)).to.have.members(withBodies);
    });

    it('should carry request examples its schemas accept and its routes answer as documented', async () => {
      for (const [method, path, operation] of operations(document)) {
        if (!operation.requestBody) continue;
        const { example } = operation.requestBody.content['application/json'];
        const validate = validator('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');
        expect(validate(example), `${path} example: ${JSON.stringify(validate.errors)}`).to.equal(true);
        const response = await request(app)
          .post(path)
          .send(example as object);
        expectDocumented(document, validator, method, path, response);
        if (path === '/v1/start' || path === '/pipeline/start')
          expect(response.body.error_type).to.equal('StartRequiresAsyncOrchestration');
        else expect(response.status, `${path}: ${JSON.stringify(response.body)}`).to.equal(200);
      }
    });

    it('should reject, in its schemas as in its routes, a body each route refuses', async () => {
      for (const [method, path, operation] of operations(document)) {
        if (!operation.requestBody) continue;
        const invalid = INVALID_BODIES[operation.operationId];
        const validate = validator('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');
        expect(validate(invalid), `${path} accepts ${JSON.stringify(invalid)} in the document`).to.equal(false);
        const response = await request(app)
          .post(path)
          .send(invalid as object);
        expect(response.status, `${path}: ${JSON.stringify(response.body)}`).to.equal(422);
        expect(response.body.error_type).to.equal('ValidationError');
        expectDocumented(document, validator, method, path, response);
      }
    });

    it('should answer its GET routes as documented, query parameters included', async () => {
      for (const [method, path] of operations(document)) {
        if (method === 'get' && !path.includes('{'))
          expectDocumented(document, validator, method, path, await request(app).get(path));
      }
      const type = document.paths['/v1/models']!['get']!.parameters!.find((parameter) => parameter.name === 'type')!;
      expect(type.in).to.equal('query');
      const validateType = validator('paths', '/v1/models', 'get', 'parameters', '0', 'schema');
      expect(validateType('llm')).to.equal(true);
      expect(validateType('judgment')).to.equal(true);
      expect(validateType('nope')).to.equal(false);
      const refused = await request(app).get('/v1/models?type=nope').expect(422);
      expect(refused.body.error_type).to.equal('InvalidModelCategory');
      expectDocumented(document, validator, 'get', '/v1/models', refused);
      expectDocumented(document, validator, 'get', '/v1/models', await request(app).get('/v1/models?type=llm'));
      expectDocumented(document, validator, 'get', '/v1/models', await request(app).get('/v1/models?type=judgment'));
    });
  });

  describe('on a queue deployment', () => {
    let deployment: QueueDeployment;
    let document: OpenApi;
    let validator: ReturnType<typeof schemaValidators>;

    before(async () => {
      deployment = startQueueDeployment();
      document = await fetchDocument(deployment.app);
      validator = schemaValidators(document);
    });

    after(async () => {
      await deployment.close();
    });

    it('should describe exactly the API routes the app serves, the run lifecycle among them', () => {
      const served = servedRoutes(deployment.app).filter((route) => !PAGES.test(route));
      expect(documentedRoutes(document)).to.have.members(served);
      expect(documentedRoutes(document)).to.include.members([
        'get /v1/runs/{runId}/status',
        'get /v1/runs/{runId}/results',
      ]);
    });

    it('should answer a started run’s acknowledgement, status and results as documented', async () => {
      const example = document.paths['/v1/start']!['post']!.requestBody!.content['application/json'].example;
      const ack = await request(deployment.app)
        .post('/v1/start')
        .send(example as object)
        .expect(202);
      expectDocumented(document, validator, 'post', '/v1/start', ack);
      const runId = ack.body.pipeline_run_id as string;
      const status = await pollUntil(
        () => request(deployment.app).get(`/v1/runs/${runId}/status`),
        (response) => response.body.status === 'COMPLETED',
      );
      expectDocumented(document, validator, 'get', '/v1/runs/{runId}/status', status);
      const results = await request(deployment.app).get(`/v1/runs/${runId}/results`).expect(200);
      expectDocumented(document, validator, 'get', '/v1/runs/{runId}/results', results);
      const unknown = await request(deployment.app).get('/v1/runs/no-such-run/results').expect(404);
      expectDocumented(document, validator, 'get', '/v1/runs/{runId}/results', unknown);
      const finished = await request(deployment.app).post(`/v1/runs/${runId}/cancel`).expect(409);
      expectDocumented(document, validator, 'post', '/v1/runs/{runId}/cancel', finished);
    });
  });

  describe('when the deployment authenticates callers', () => {
    const API_KEY = 'a-test-api-key';
    let app: Express;

    before(() => {
      app = buildTestApp({ AUTH_MODE: 'api_key', API_KEY });
    });

    it('should need the bearer token like every /v1 route', async () => {
      const response = await request(app).get('/v1/openapi.json').expect(401);
      expect(response.headers['www-authenticate']).to.equal('Bearer');
      expect(response.body.error_type).to.equal('Unauthenticated');
    });

    it('should declare the bearer scheme on every route but the probes, each with its 401', async () => {
      const document = await fetchDocument(app, API_KEY);
      expect(document.components.securitySchemes).to.deep.equal({
        [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', description: 'The deployment’s `API_KEY`.' },
      });
      for (const [method, path, operation] of operations(document)) {
        // the probes, and the PUT of an upload grant, whose signed URL is its credential (docs/uploads.md#the-put)
        if (['/health', '/ready', '/'].includes(path) || (method === 'put' && path.startsWith('/v1/storage/'))) {
          expect(operation.security, path).to.equal(undefined);
          expect(Object.keys(operation.responses), path).to.not.include('401');
        } else {
          expect(operation.security, `${method} ${path}`).to.deep.equal([{ [BEARER_SCHEME]: [] }]);
          expect(Object.keys(operation.responses), `${method} ${path}`).to.include('401');
        }
      }
    });

    it('should mark a JWT deployment’s bearer tokens as JWTs', async () => {
      const secret = 'a-test-secret-of-reasonable-length-0123456789';
      const jwtApp = buildTestApp({ AUTH_MODE: 'jwt', JWT_SECRET_KEY: secret });
      await request(jwtApp).get('/v1/openapi.json').expect(401);
      const { SignJWT } = await import('jose');
      const token = await new SignJWT({ user_id: 'alice' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
      const document = await fetchDocument(jwtApp, token);
      expect(document.components.securitySchemes![BEARER_SCHEME]).to.include({ scheme: 'bearer', bearerFormat: 'JWT' });
    });
  });

  describe('on a deployment with a control plane', () => {
    /** A body each control-plane route with a body must refuse (beside {@link INVALID_BODIES}). */
    const INVALID_CONTROL_PLANE_BODIES: Record<string, unknown> = {
      create_pipelex_api_key_v1_pipelex_api_keys_post: { label: '' },
      create_organization_v1_organizations_post: { name: 42 },
      create_method_v1_methods_post: { name: '', mthds: 'domain = "x"' },
      cancel_runs_v1_runs_cancel_post: { states: 'STARTED' },
    };
    let database: TestDatabase;
    let controlPlane: ControlPlaneDatabase;
    let app: Express;
    let document: OpenApi;
    let validator: ReturnType<typeof schemaValidators>;

    before(async () => {
      database = await createTestDatabase();
      controlPlane = await openDatabase({ url: database.url, embeddedDir: '', poolMax: 2 });
      app = buildControlPlaneApp(controlPlane);
      document = await fetchDocument(app);
      validator = schemaValidators(document);
    });

    after(async () => {
      await controlPlane.close();
      await database.drop();
    });

    it('should describe exactly the API routes the app serves, the key routes among them', () => {
      const served = servedRoutes(app).filter((route) => !PAGES.test(route));
      expect(documentedRoutes(document)).to.have.members(served);
      expect(served).to.include.members([
        'delete /v1/pipelex-api-keys/{keyId}',
        'get /platform/v1/auth/verify',
        'put /v1/methods/{methodId}/draft',
        'patch /v1/methods/{methodId}',
      ]);
    });

    it('should accept its examples and refuse, in its schemas as in its routes, what the routes refuse', async () => {
      for (const [method, path, operation] of operations(document)) {
        const invalid = INVALID_CONTROL_PLANE_BODIES[operation.operationId];
        if (!operation.requestBody || invalid === undefined) continue;
        const validate = validator('paths', path, method, 'requestBody', 'content', 'application/json', 'schema');
        const { example } = operation.requestBody.content['application/json'];
        expect(validate(example), `${path} example: ${JSON.stringify(validate.errors)}`).to.equal(true);
        expect(validate(invalid), `${path} accepts ${JSON.stringify(invalid)} in the document`).to.equal(false);
        const response = await request(app)
          .post(path)
          .send(invalid as object);
        expect(response.status, `${path}: ${JSON.stringify(response.body)}`).to.equal(422);
        expectDocumented(document, validator, method, path, response);
      }
    });
  });
});
