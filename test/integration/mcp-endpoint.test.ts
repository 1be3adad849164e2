/**
 * The MCP endpoint (docs/mcp.md) on a queue deployment: real Redis, a real PostgreSQL control plane, the API on a real
 * port with a worker pool in this process, a fake OpenAI-compatible provider that answers when a test says so, and the
 * SDK's own client over Streamable HTTP. An organization's key lists exactly its published method versions as typed
 * tools; a call completes; a held call reports progress, then its result; a cancelled call's run ends CANCELLED;
 * another organization sees none of it; a bad key is a 401 problem before any MCP message; a publish tells a listening
 * client that its tools changed; a call that outlasts the wait answers its run's id.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  type Progress,
  ResourceListChangedNotificationSchema,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { ResourceStack } from '../../shared/lifecycle/index.js';
import { createLogger } from '../../shared/observability/index.js';
import { openQueueBackend } from '../../shared/orchestration/queued.js';
import { buildControlPlaneApp, closeControlPlaneApps } from '../helpers/control-plane-app.js';
import { completion, type FakeOpenAiServer, startFakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { pollUntil } from '../helpers/poll.js';
import { useTestControlPlane } from '../helpers/postgres.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { sharedDiagnostics } from '../helpers/test-app.js';

const ADMIN = 'mcp-admin-key';

/** The generic tools every caller lists. */
const GENERIC = [
  'mthds_list_methods',
  'mthds_validate_bundle',
  'mthds_inputs_template',
  'mthds_run_bundle',
  'mthds_run_status',
  'mthds_run_results',
];

/** The greeting bundle with another description (a second version). */
const SECOND_GREETING = GREETING_BUNDLE.replace('description = "Greetings"', 'description = "Greetings, again"');

/** A promise the test settles, and its trigger. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('MCP endpoint (queue mode, real Redis and PostgreSQL, fake provider, SDK client)', function () {
  this.timeout(120_000);
  const suite = useTestControlPlane();
  let fake: FakeOpenAiServer;
  let deployment: QueueDeployment;
  /** Closes the queue deployment of the test, when it started one. */
  let undeploy: (() => Promise<void>) | undefined;
  let server: Server;
  let endpoint: URL;
  const clients: Client[] = [];

  const as = (token: string) => ({
    get: (path: string) => request(deployment.app).get(path).set('Authorization', `Bearer ${token}`),
    post: (path: string, body: object = {}) =>
      request(deployment.app).post(path).set('Authorization', `Bearer ${token}`).send(body),
    put: (path: string, body: object) =>
      request(deployment.app).put(path).set('Authorization', `Bearer ${token}`).send(body),
  });

  async function organization(name: string): Promise<{ id: string; key: string }> {
    const admin = as(ADMIN);
    const id = (await admin.post('/v1/organizations', { name }).expect(201)).body.org_id as string;
    const issued = await admin.post('/v1/pipelex-api-keys', { label: 'agent', organization_id: id }).expect(201);
    return { id, key: issued.body.api_key as string };
  }

  async function publishedMethod(key: string, name: string, mthds = GREETING_BUNDLE): Promise<string> {
    const id = (await as(key).post('/v1/methods', { name, mthds }).expect(201)).body.method_id as string;
    expect((await as(key).post(`/v1/methods/${id}/publish`).expect(200)).body.outcome).to.equal('published');
    return id;
  }

  /**
   * Call the greeter's tool, wait for its run to reach the provider, cancel the call from the client and wait for the
   * run to end CANCELLED.
   * @returns the run's id, read from the call's first progress notification
   */
  async function callThenCancel(client: Client, key: string, greeter: string, reason: string): Promise<string> {
    const progress: Progress[] = [];
    const abort = new AbortController();
    const calling = client.callTool({ name: `${greeter}_v1`, arguments: { name: { text: 'Eve' } } }, undefined, {
      onprogress: (entry) => progress.push(entry),
      signal: abort.signal,
    });
    calling.catch(() => undefined);
    await pollUntil(
      async () => fake.requests.length,
      (count) => count === 1,
    );
    const runId = /^run (\S+) started$/.exec(progress[0]!.message!)![1]!;
    abort.abort(reason);
    await pollUntil(
      async () => (await as(key).get(`/v1/runs/${runId}/status`).expect(200)).body.status as string,
      (status) => status === 'CANCELLED',
    );
    return runId;
  }

  /**
   * Wait until a client's listening stream receives catalog signals, then publish a new version of a method and wait
   * for the client to be told its tools changed.
   * @param toolChanges - the count of `tools/list_changed` notifications the client received so far
   */
  async function publishSeen(key: string, orgId: string, methodId: string, mthds: string, toolChanges: () => number) {
    // the client opens its listening stream after initialize: once a signal reaches it, the stream is there
    await pollUntil(
      async () => {
        await deployment.backend.catalogChanges.announce(orgId);
        return toolChanges();
      },
      (count) => count > 0,
    );
    const before = toolChanges();
    await as(key).put(`/v1/methods/${methodId}/draft`, { mthds }).expect(200);
    await as(key).post(`/v1/methods/${methodId}/publish`).expect(200);
    await pollUntil(
      async () => toolChanges(),
      (count) => count > before,
    );
  }

  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  function providerEnvironment(): Record<string, string> {
    return { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: fake.baseUrl, INFERENCE_MAX_RETRIES: '0' };
  }

  function deploy(environment: Record<string, string> = {}): Promise<void> {
    deployment = startQueueDeployment({
      controlPlane: suite.database,
      environment: { AUTH_MODE: 'api_key', API_KEY: ADMIN, ...providerEnvironment(), ...environment },
    });
    undeploy = () => deployment.close();
    server = deployment.app.listen(0, '127.0.0.1');
    return new Promise((resolve) =>
      server.once('listening', () => {
        endpoint = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
        resolve();
      }),
    );
  }

  beforeEach(async () => {
    fake = await startFakeOpenAiServer();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await closeControlPlaneApps();
    await undeploy?.();
    undeploy = undefined;
    await fake.close();
  });

  describe('with the default wait', () => {
    let acme: { id: string; key: string };
    let globex: { id: string; key: string };
    let greeter: string;

    beforeEach(async () => {
      await deploy();
      acme = await organization('Acme');
      globex = await organization('Globex');
      greeter = await publishedMethod(acme.key, 'greeter');
      await as(acme.key).put(`/v1/methods/${greeter}/draft`, { mthds: SECOND_GREETING }).expect(200);
      await as(acme.key).post(`/v1/methods/${greeter}/publish`).expect(200);
      // a draft never published is no tool
      await as(acme.key).post('/v1/methods', { name: 'draft-only', mthds: GREETING_BUNDLE }).expect(201);
    });

    it('should list exactly the organization’s published method versions as typed tools, beside the generic ones', async () => {
      const client = await connect(acme.key);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.have.members([...GENERIC, `${greeter}_v2`, `${greeter}_v1`]);
      const second = tools.find((tool) => tool.name === `${greeter}_v2`)!;
      expect(second.title).to.equal('greeter (v2)');
      expect(second.description).to.equal('Greetings, again — Greet a person');
      expect(second.inputSchema.type).to.equal('object');
      expect(second.inputSchema.required).to.deep.equal(['name']);
      expect(second.inputSchema.properties).to.have.keys('name');
      expect(second.outputSchema).to.include({ type: 'object' });
      expect(second.outputSchema!.required).to.deep.equal(['pipeline_run_id', 'status']);
      expect(second.outputSchema!.properties).to.have.keys('pipeline_run_id', 'status', 'output', 'error');
      const first = tools.find((tool) => tool.name === `${greeter}_v1`)!;
      expect(first.description).to.equal('Greetings — Greet a person');
    });

    it('should call a method tool whose run completes, answering its structured output', async () => {
      fake.respondWith(() => completion('Hello Ada!'));
      const client = await connect(acme.key);
      await client.listTools();
      const result = (await client.callTool({
        name: `${greeter}_v2`,
        arguments: { name: { text: 'Ada' } },
      })) as CallToolResult;
      expect(result.isError ?? false).to.equal(false);
      expect(result.structuredContent).to.include({ status: 'COMPLETED' });
      expect(result.structuredContent!['output']).to.deep.equal({ text: 'Hello Ada!' });
      const runId = result.structuredContent!['pipeline_run_id'] as string;
      const status = await as(acme.key).get(`/v1/runs/${runId}/status`).expect(200);
      expect(status.body.status).to.equal('COMPLETED');
      const source = await client.readResource({ uri: `mthds://methods/${greeter}/versions/1/source` });
      expect(source.contents[0]).to.include({ mimeType: 'application/toml', text: GREETING_BUNDLE });
      const results = await client.readResource({ uri: `mthds://runs/${runId}/results` });
      const [body] = results.contents as { text: string }[];
      expect(JSON.parse(body!.text).main_stuff).to.deep.equal({ text: 'Hello Ada!' });
    });

    it('should report a held call’s progress, then answer its result once the provider answers', async () => {
      const held = gate();
      fake.respondWith(() => ({ ...completion('Hello at last'), after: held.opened }));
      const client = await connect(acme.key);
      await client.listTools();
      const seen: (Progress | 'result')[] = [];
      const calling = client
        .callTool({ name: `${greeter}_v1`, arguments: { name: { text: 'Bob' } } }, undefined, {
          onprogress: (progress) => seen.push(progress),
        })
        .then((result) => {
          seen.push('result');
          return result as CallToolResult;
        });
      await pollUntil(
        async () => seen.map((entry) => (entry === 'result' ? entry : entry.message)),
        (messages) => messages.includes('pipe:started greet_person') && fake.requests.length === 1,
      );
      held.open();
      const result = await calling;
      const runId = result.structuredContent!['pipeline_run_id'] as string;
      expect(runId).to.match(/^mcp-[0-9a-f]{40}$/);
      expect(seen.map((entry) => (entry === 'result' ? entry : entry.message))).to.deep.equal([
        `run ${runId} started`,
        'run:started',
        'pipe:started greet_person',
        'pipe:finished greet_person',
        'run:finished',
        'result',
      ]);
      expect(result.structuredContent).to.include({ status: 'COMPLETED' });
      expect(result.structuredContent!['output']).to.deep.equal({ text: 'Hello at last' });
    });

    it('should stop the run of a call the client cancels: the run ends CANCELLED', async () => {
      const never = gate();
      fake.respondWith(() => ({ ...completion('too late'), after: never.opened }));
      const client = await connect(acme.key);
      await client.listTools();
      await callThenCancel(client, acme.key, greeter, 'the agent changed its mind');
      never.open();
    });

    it('should show another organization none of the first one’s tools or runs', async () => {
      fake.respondWith(() => completion('Hello Ada!'));
      const theirs = await publishedMethod(globex.key, 'their-greeter');
      const acmeClient = await connect(acme.key);
      const done = (await acmeClient.callTool({
        name: `${greeter}_v1`,
        arguments: { name: { text: 'Ada' } },
      })) as CallToolResult;
      const runId = done.structuredContent!['pipeline_run_id'] as string;

      const client = await connect(globex.key);
      const { tools } = await client.listTools();
      expect(tools.map((tool: Tool) => tool.name)).to.have.members([...GENERIC, `${theirs}_v1`]);
      const foreign = (await client.callTool({
        name: `${greeter}_v1`,
        arguments: { name: { text: 'Mallory' } },
      })) as CallToolResult;
      expect(foreign.isError).to.equal(true);
      expect((foreign.content as { text: string }[])[0]!.text).to.equal(
        `Method not found: No method '${greeter}' is known to this caller.`,
      );
      const status = (await client.callTool({
        name: 'mthds_run_status',
        arguments: { pipeline_run_id: runId },
      })) as CallToolResult;
      expect(status.isError).to.equal(true);
      expect((status.content as { text: string }[])[0]!.text).to.match(/^Run not found/);
      await client.readResource({ uri: `mthds://runs/${runId}/results` }).then(
        () => expect.fail('another organization read the run'),
        (error: Error) => expect(error.message).to.match(/Run not found/),
      );
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri)).to.deep.equal([`mthds://methods/${theirs}/versions/1/source`]);
    });

    it('should let an agent validate a bundle, get its inputs template and run it inline with the generic tools', async () => {
      fake.respondWith(() => completion('Hello inline'));
      const client = await connect(acme.key);
      const validated = (await client.callTool({
        name: 'mthds_validate_bundle',
        arguments: { mthds_contents: [GREETING_BUNDLE] },
      })) as CallToolResult;
      expect(validated.structuredContent).to.include({ is_valid: true, is_runnable: true });
      const broken = (await client.callTool({
        name: 'mthds_validate_bundle',
        arguments: { mthds_contents: ['domain = "x"\n[pipe.p]\ntype = "PipeLLM"'] },
      })) as CallToolResult;
      expect(broken.structuredContent).to.include({ is_valid: false });
      const template = (await client.callTool({
        name: 'mthds_inputs_template',
        arguments: { method_id: `${greeter}@1` },
      })) as CallToolResult;
      expect(JSON.stringify(template.structuredContent)).to.include('name');
      const ran = (await client.callTool({
        name: 'mthds_run_bundle',
        arguments: { mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } },
      })) as CallToolResult;
      expect(ran.structuredContent).to.include({ status: 'COMPLETED' });
      expect(ran.structuredContent!['output']).to.deep.equal({ text: 'Hello inline' });
      const refused = (await client.callTool({
        name: 'mthds_run_bundle',
        arguments: { inputs: {} },
      })) as CallToolResult;
      expect(refused.isError).to.equal(true);
      expect((refused.content as { text: string }[])[0]!.text).to.match(/^Validation error: arguments\.mthds_contents/);
    });

    it('should answer a retried call (same session, same JSON-RPC id) with the same run, started once', async () => {
      fake.respondWith(() => completion('Hello once'));
      const call = async () => {
        const answer = await request(deployment.app)
          .post('/mcp')
          .set('Authorization', `Bearer ${acme.key}`)
          .set('Accept', 'application/json, text/event-stream')
          .set('Mcp-Session-Id', 'a-session-of-this-test')
          .send({
            jsonrpc: '2.0',
            id: 7,
            method: 'tools/call',
            params: { name: `${greeter}_v1`, arguments: { name: { text: 'Ada' } } },
          })
          .expect(200);
        const data = answer.text.split('\n').find((line) => line.startsWith('data: '))!;
        return (JSON.parse(data.slice('data: '.length)) as { result: CallToolResult }).result;
      };
      const first = await call();
      const again = await call();
      expect(first.structuredContent).to.include({ status: 'COMPLETED' });
      expect(again.structuredContent).to.deep.equal(first.structuredContent);
      expect(fake.requests).to.have.length(1);
    });

    it('should refuse a bad key with a 401 problem document before any MCP message', async () => {
      const refused = await request(deployment.app)
        .post('/mcp')
        .set('Authorization', 'Bearer not-a-key')
        .set('Accept', 'application/json, text/event-stream')
        .send({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        })
        .expect(401);
      expect(refused.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(refused.body).to.include({ status: 401, error_type: 'Unauthenticated' });
      const client = new Client({ name: 'intruder', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: { Authorization: 'Bearer not-a-key' } },
      });
      await client.connect(transport).then(
        () => expect.fail('connected with a bad key'),
        (error: Error) => expect(error.message).to.match(/401/),
      );
      await client.close();
    });

    it('should tell a listening client that its tools changed when a new version is published', async () => {
      const client = await connect(acme.key);
      let toolChanges = 0;
      let resourceChanges = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        toolChanges += 1;
      });
      client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
        resourceChanges += 1;
      });
      await publishSeen(acme.key, acme.id, greeter, GREETING_BUNDLE, () => toolChanges);
      expect(resourceChanges).to.be.greaterThan(0);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).to.include(`${greeter}_v3`);
    });
  });

  describe('across two API replicas', () => {
    let replica: { server: Server; url: URL; close(): Promise<void> };

    /** A second API process of the deployment: its settings, Redis prefix and control plane, another port. */
    async function secondReplica(): Promise<typeof replica> {
      const settings = deployment.settings;
      const inference = selectInferenceBackend(settings.inference, settings.serviceConfigDir, providerEnvironment());
      const backend = openQueueBackend(settings);
      const resources = new ResourceStack();
      const app = createApp({
        settings,
        logger: createLogger('silent', 'test'),
        inference,
        modelDeck: inference.deck,
        queueBackend: backend,
        diagnostics: sharedDiagnostics(),
        apiConfig: { orchestrationMode: 'bullmq', allowRequestOrchestrationModeOverride: false },
        controlPlane: Promise.resolve(suite.database),
        resources,
      });
      const listening = createServer(app).listen(0, '127.0.0.1');
      await new Promise((resolve) => listening.once('listening', resolve));
      return {
        server: listening,
        url: new URL(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`),
        async close() {
          listening.closeAllConnections();
          await new Promise((resolve) => listening.close(resolve));
          await resources.close();
          await backend.close();
        },
      };
    }

    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await replica.close();
    });

    it('should serve a client whose requests land on either replica: its call cancelled from the other, its tool list changed from the other', async () => {
      await deploy();
      replica = await secondReplica();
      const acme = await organization('Acme');
      const greeter = await publishedMethod(acme.key, 'greeter');
      const never = gate();
      fake.respondWith(() => ({ ...completion('too late'), after: never.opened }));
      // initialize, the listening stream and a cancellation go to the second replica; every other request to the first
      const landed: string[] = [];
      const route = (input: string | URL, init?: RequestInit): Promise<Response> => {
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
        const method = init?.method === 'GET' ? 'GET' : (body.method ?? 'response');
        const second = method === 'GET' || method === 'initialize' || method === 'notifications/cancelled';
        landed.push(`${method}@${second ? 'second' : 'first'}`);
        const target = new URL(String(input));
        target.host = (second ? replica.url : endpoint).host;
        return fetch(target, init);
      };
      const client = new Client({ name: 'roaming-agent', version: '1.0.0' });
      clients.push(client);
      await client.connect(
        new StreamableHTTPClientTransport(endpoint, {
          requestInit: { headers: { Authorization: `Bearer ${acme.key}` } },
          fetch: route,
        }),
      );
      let toolChanges = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        toolChanges += 1;
      });
      expect((await client.listTools()).tools.map((tool) => tool.name)).to.include(`${greeter}_v1`);

      await callThenCancel(client, acme.key, greeter, 'stop');
      expect(landed).to.include.members(['tools/call@first', 'notifications/cancelled@second', 'GET@second']);
      never.open();

      await publishSeen(acme.key, acme.id, greeter, SECOND_GREETING, () => toolChanges);
    });
  });

  describe('on a direct deployment (no queue)', () => {
    it('should run a called method in the API process, answer its output, and stop it when the call is cancelled', async () => {
      const app = buildControlPlaneApp(suite.database, {
        AUTH_MODE: 'api_key',
        API_KEY: ADMIN,
        ...providerEnvironment(),
      });
      server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      endpoint = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
      const admin = (path: string, body: object) =>
        request(app).post(path).set('Authorization', `Bearer ${ADMIN}`).send(body).expect(201);
      const org = (await admin('/v1/organizations', { name: 'Direct' })).body.org_id as string;
      const key = (await admin('/v1/pipelex-api-keys', { label: 'agent', organization_id: org })).body
        .api_key as string;
      const method = (
        await request(app)
          .post('/v1/methods')
          .set('Authorization', `Bearer ${key}`)
          .send({ name: 'greeter', mthds: GREETING_BUNDLE })
          .expect(201)
      ).body.method_id as string;
      await request(app)
        .post(`/v1/methods/${method}/publish`)
        .set('Authorization', `Bearer ${key}`)
        .send({})
        .expect(200);
      const client = await connect(key);
      fake.respondWith(() => completion('Hello direct'));
      const done = (await client.callTool({
        name: `${method}_v1`,
        arguments: { name: { text: 'Ada' } },
      })) as CallToolResult;
      expect(done.structuredContent).to.include({ status: 'COMPLETED' });
      expect(done.structuredContent!['output']).to.deep.equal({ text: 'Hello direct' });

      const never = gate();
      fake.respondWith(() => ({ ...completion('too late'), after: never.opened }));
      const progress: Progress[] = [];
      const abort = new AbortController();
      const calling = client.callTool({ name: `${method}_v1`, arguments: { name: { text: 'Eve' } } }, undefined, {
        onprogress: (entry) => progress.push(entry),
        signal: abort.signal,
      });
      calling.catch(() => undefined);
      await pollUntil(
        async () => fake.requests.length,
        (count) => count === 2,
      );
      const runId = /^run (\S+) started$/.exec(progress[0]!.message!)![1]!;
      abort.abort('stop');
      await pollUntil(
        async () =>
          (await request(app).get(`/v1/runs/${runId}/status`).set('Authorization', `Bearer ${key}`).expect(200)).body
            .status as string,
        (status) => status === 'CANCELLED',
      );
      never.open();
    });
  });

  describe('with one wait slot', () => {
    it('should answer a call’s run id at once while another call holds the only slot, the run going on', async () => {
      await deploy({ RUN_EVENT_STREAMS_MAX: '1' });
      const acme = await organization('Acme');
      const greeter = await publishedMethod(acme.key, 'greeter');
      const held = gate();
      fake.respondWith(() => ({ ...completion('Hello in turn'), after: held.opened }));
      const client = await connect(acme.key);
      const progress: Progress[] = [];
      const waiting = client.callTool({ name: `${greeter}_v1`, arguments: { name: { text: 'Ada' } } }, undefined, {
        onprogress: (entry) => progress.push(entry),
      });
      await pollUntil(
        async () => progress.length,
        (count) => count > 0,
      );
      const second = (await client.callTool({
        name: `${greeter}_v1`,
        arguments: { name: { text: 'Bob' } },
      })) as CallToolResult;
      expect(second.structuredContent!['status']).to.be.oneOf(['PENDING', 'RUNNING']);
      held.open();
      expect(((await waiting) as CallToolResult).structuredContent).to.include({ status: 'COMPLETED' });
      const runId = second.structuredContent!['pipeline_run_id'] as string;
      await pollUntil(
        async () => (await as(acme.key).get(`/v1/runs/${runId}/status`).expect(200)).body.status as string,
        (status) => status === 'COMPLETED',
      );
    });
  });

  describe('with a short wait', () => {
    it('should answer the run’s id when the run outlasts the wait, and the run goes on', async () => {
      await deploy({ MCP_CALL_WAIT_SECONDS: '1' });
      const acme = await organization('Acme');
      const greeter = await publishedMethod(acme.key, 'greeter');
      const held = gate();
      fake.respondWith(() => ({ ...completion('Hello, eventually'), after: held.opened }));
      const client = await connect(acme.key);
      const result = (await client.callTool({
        name: `${greeter}_v1`,
        arguments: { name: { text: 'Ada' } },
      })) as CallToolResult;
      expect(result.structuredContent).to.include({ status: 'RUNNING' });
      const runId = result.structuredContent!['pipeline_run_id'] as string;
      held.open();
      const completed = await pollUntil(
        async () =>
          (await client.callTool({
            name: 'mthds_run_results',
            arguments: { pipeline_run_id: runId },
          })) as CallToolResult,
        (read) => read.structuredContent?.['main_stuff'] !== undefined,
      );
      expect(completed.structuredContent!['main_stuff']).to.deep.equal({ text: 'Hello, eventually' });
    });
  });
});
