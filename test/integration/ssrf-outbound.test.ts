import { rmSync } from 'node:fs';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app.js';
import type { Environment } from '../../shared/config/index.js';
import { CallbackDeliveryError } from '../../shared/errors/index.js';
import { createDocumentExtractor, selectInferenceBackend } from '../../shared/inference/index.js';
import { createMethodFetcher } from '../../shared/methods/index.js';
import { createLogger } from '../../shared/observability/index.js';
import { deliverCallback } from '../../shared/orchestration/index.js';
import { testSettings } from '../helpers/config-dir.js';
import { sample } from '../helpers/corpus.js';
import { TestRepo } from '../helpers/git-repos.js';
import { type GitServer, startGitServer } from '../helpers/git-server.js';
import { tempDir } from '../helpers/method-repos.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { type RequestSink, SINK_SECRET, startRequestSink } from '../helpers/request-sink.js';
import {
  ALWAYS_REFUSED_SPELLINGS,
  LOOPBACK_SPELLINGS,
  NAMES_ALWAYS_REFUSED,
  NAMES_REFUSED_WHEN_OFF,
  REFUSED_WHEN_OFF,
  testResolver,
} from '../helpers/ssrf-cases.js';

const EXTRACT = `domain = "ssrf"
description = "Reads one document"
main_pipe = "read"

[pipe.read]
type = "PipeExtract"
description = "Read a document"
inputs = { document = "Document" }
output = "Page[]"
`;

const HELLO_PACKAGE = {
  'METHODS.toml':
    '[package]\nname = "probe"\naddress = "github.com/acme/probe"\nversion = "1.0.0"\ndescription = "probe"\nmain_pipe = "say_hello"\n',
  'probe.mthds': `domain = "greeting"\ndescription = "Hello"\nmain_pipe = "say_hello"\n\n[pipe.say_hello]\ntype = "PipeLLM"\ndescription = "Say hello"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Say hello to @name"\n`,
};

const SECRET = 'ssrf-secret';
const hello = { mthds_contents: [sample('hello_greeting')], inputs: { name: 'Ada' } };

/** An app built as `npm start` would build it, with the test resolver on the document and clone paths (never DNS). */
function appWith(environment: Environment): Express {
  const settings = testSettings(environment);
  const logger = createLogger('silent', 'test');
  const inference = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
  return createApp({
    settings,
    logger,
    inference,
    extractor: createDocumentExtractor({ ...settings.documents, resolver: testResolver }),
    methodFetcher: createMethodFetcher(settings, logger, { resolver: testResolver }).fetcher,
  });
}

function readDocument(app: Express, url: string) {
  return request(app)
    .post('/v1/execute')
    .send({
      mthds_contents: [EXTRACT],
      inputs: { document: { concept: 'native.Document', content: { url, mime_type: 'text/plain' } } },
    });
}

describe('SSRF: every outbound path refuses non-public destinations (docs/outbound-requests.md)', function () {
  this.timeout(120000);
  let sink: RequestSink;

  beforeEach(async () => {
    sink = await startRequestSink();
  });

  afterEach(async () => {
    await sink.close();
  });

  describe('PipeExtract documents fetched by URL (/v1/execute, direct mode)', () => {
    const documentApp = (allow: boolean) =>
      appWith({ DOCUMENT_ALLOW_PRIVATE_HOSTS: String(allow), DOCUMENT_FETCH_TIMEOUT_MS: '3000' });

    it(`should refuse ${REFUSED_WHEN_OFF.length} spellings and ${NAMES_REFUSED_WHEN_OFF.length} resolved names with 422 OutboundRequestRefusedError while DOCUMENT_ALLOW_PRIVATE_HOSTS is off`, async () => {
      const app = documentApp(false);
      for (const host of [...REFUSED_WHEN_OFF, ...NAMES_REFUSED_WHEN_OFF]) {
        const response = await readDocument(app, `http://${host}:${sink.port}/metrics`);
        expect(response.status, host).to.equal(422);
        expect(response.body, host).to.include({ error_type: 'OutboundRequestRefusedError', error_domain: 'input' });
        expect(response.body.detail, host)
          .to.match(/^The document URL \S+ is refused: /)
          .and.match(/non-public address|cloud-metadata|loopback host name/);
        expect(response.body.detail, host).to.include('DOCUMENT_ALLOW_PRIVATE_HOSTS');
        expect(JSON.stringify(response.body)).to.not.include(SINK_SECRET);
      }
      expect(sink.received).to.deep.equal([]);
    });

    it('should name the address class and the setting, without internals', async () => {
      const response = await readDocument(documentApp(false), `http://2130706433:${sink.port}/metrics`).expect(422);
      expect(response.body.detail).to.equal(
        `The document URL http://2130706433:${sink.port}/metrics is refused: it targets 127.0.0.1, a non-public address (loopback): only public destinations are accepted while DOCUMENT_ALLOW_PRIVATE_HOSTS is off (it is for development and tests only).`,
      );
      expect(response.body).to.not.have.property('stack');
    });

    it(`should read the sink through ${LOOPBACK_SPELLINGS.length} loopback spellings and a loopback name once DOCUMENT_ALLOW_PRIVATE_HOSTS is on (positive control)`, async () => {
      const app = documentApp(true);
      for (const host of [...LOOPBACK_SPELLINGS, 'rebind.test']) {
        const response = await readDocument(app, `http://${host}:${sink.port}/doc.txt`);
        expect(response.status, host).to.equal(200);
        expect(JSON.stringify(response.body.pipe_output)).to.include(SINK_SECRET);
      }
      expect(sink.received).to.have.length(LOOPBACK_SPELLINGS.length + 1);
    });

    it(`should still refuse ${ALWAYS_REFUSED_SPELLINGS.length} metadata and other non-public spellings and ${NAMES_ALWAYS_REFUSED.length} names resolving to metadata with the switch on`, async () => {
      const app = documentApp(true);
      for (const host of [...ALWAYS_REFUSED_SPELLINGS, ...NAMES_ALWAYS_REFUSED]) {
        const response = await readDocument(app, `http://${host}:${sink.port}/latest/meta-data/`);
        expect(response.status, host).to.equal(422);
        expect(response.body.error_type, host).to.equal('OutboundRequestRefusedError');
        expect(response.body.detail, host).to.match(/refused in every mode/);
      }
      expect(sink.received).to.deep.equal([]);
    });

    it('should follow a redirect to an allowed destination (switch on): the document is read from the second sink', async () => {
      const target = await startRequestSink();
      const redirecting = await startRequestSink((_req, res) =>
        res.writeHead(302, { location: `${target.url}/second` }).end(),
      );
      try {
        const response = await readDocument(documentApp(true), `${redirecting.url}/first`).expect(200);
        expect(JSON.stringify(response.body.pipe_output)).to.include(SINK_SECRET);
        expect(redirecting.received).to.have.length(1);
        expect(target.received).to.have.length(1);
      } finally {
        await Promise.all([target.close(), redirecting.close()]);
      }
    });

    for (const [label, location] of [
      ['a metadata address', 'http://169.254.169.254/latest/meta-data/'],
      ['a name resolving to metadata', 'http://metadata-rebind.test/latest/meta-data/'],
      ['an IPv4-mapped metadata address', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/'],
    ] as const) {
      it(`should refuse a redirect hop to ${label} with the switch on: 422 OutboundRequestRefusedError`, async () => {
        const redirecting = await startRequestSink((_req, res) => res.writeHead(302, { location }).end());
        try {
          const response = await readDocument(documentApp(true), `${redirecting.url}/first`).expect(422);
          expect(response.body.error_type).to.equal('OutboundRequestRefusedError');
          expect(response.body.detail).to.match(/refused in every mode/);
          expect(redirecting.received).to.have.length(1);
        } finally {
          await redirecting.close();
        }
      });
    }

    it('should stop after DOCUMENT_MAX_REDIRECTS hops with 422 StuffFactoryError', async () => {
      let hops = 0;
      const looping = await startRequestSink((_req, res) => {
        hops += 1;
        res.writeHead(302, { location: `/hop-${hops}` }).end();
      });
      try {
        const response = await readDocument(documentApp(true), `${looping.url}/first`).expect(422);
        expect(response.body.error_type).to.equal('StuffFactoryError');
        expect(response.body.detail).to.equal(
          `Fetching the document ${looping.url}/first answered HTTP 302 after 3 redirects (DOCUMENT_MAX_REDIRECTS); give the final URL.`,
        );
        expect(looping.received).to.have.length(4);
      } finally {
        await looping.close();
      }
    });
  });

  describe('completion callbacks (/v1/start in queue mode, and the delivery itself)', () => {
    let deployment: QueueDeployment | undefined;

    afterEach(async () => {
      await deployment?.close();
      deployment = undefined;
    });

    const start = (callbackUrls: string[]) =>
      request(deployment!.app)
        .post('/v1/start')
        .send({ ...hello, callback_urls: callbackUrls });

    it(`should refuse ${REFUSED_WHEN_OFF.length} spellings with 422 InvalidCallbackUrls while CALLBACK_ALLOW_PRIVATE_HOSTS is off`, async () => {
      deployment = startQueueDeployment({
        secret: SECRET,
        workers: false,
        environment: { CALLBACK_ALLOW_PRIVATE_HOSTS: 'false' },
      });
      for (const host of REFUSED_WHEN_OFF) {
        const response = await start([`http://${host}:${sink.port}/hook`]);
        expect(response.status, host).to.equal(422);
        expect(response.body.error_type, host).to.equal('InvalidCallbackUrls');
        expect(response.body.detail, host).to.include('CALLBACK_ALLOW_PRIVATE_HOSTS');
      }
      expect(sink.received).to.deep.equal([]);
    });

    it(`should refuse ${ALWAYS_REFUSED_SPELLINGS.length} metadata and other non-public spellings with the switch on, and deliver to ${LOOPBACK_SPELLINGS.length} loopback spellings (positive control)`, async () => {
      deployment = startQueueDeployment({ secret: SECRET, environment: { CALLBACK_ALLOW_PRIVATE_HOSTS: 'true' } });
      for (const host of ALWAYS_REFUSED_SPELLINGS) {
        const response = await start([`http://${host}:${sink.port}/hook`]);
        expect(response.status, host).to.equal(422);
        expect(response.body.error_type, host).to.equal('InvalidCallbackUrls');
      }
      expect(sink.received).to.deep.equal([]);
      const urls = LOOPBACK_SPELLINGS.map((host) => `http://${host}:${sink.port}/hook`);
      await start(urls.slice(0, 4)).expect(202);
      await start(urls.slice(4)).expect(202);
      await pollUntil(
        async () => sink.received.length,
        (count) => count >= urls.length,
      );
      expect(sink.received).to.have.length(urls.length);
    });

    const deliver = (url: string, allowPrivateHosts: boolean) =>
      deliverCallback({
        url,
        runId: 'r',
        body: '{}',
        secret: SECRET,
        nowSeconds: 0,
        timeoutMs: 3000,
        allowPrivateHosts,
        resolver: testResolver,
      });

    async function refusedDelivery(url: string, allowPrivateHosts: boolean): Promise<CallbackDeliveryError> {
      try {
        await deliver(url, allowPrivateHosts);
      } catch (error) {
        expect(error, url).to.be.instanceOf(CallbackDeliveryError);
        return error as CallbackDeliveryError;
      }
      return expect.fail(`${url} was delivered`);
    }

    it(`should refuse ${NAMES_REFUSED_WHEN_OFF.length} names at connect time (not retryable), ${NAMES_ALWAYS_REFUSED.length} of them even with the switch on`, async () => {
      for (const name of NAMES_REFUSED_WHEN_OFF) {
        const error = await refusedDelivery(`http://${name}:${sink.port}/hook`, false);
        expect(error.message).to.match(
          new RegExp(`^The callback URL \\S+ is refused: its host '${name.replace('.', '\\.')}' resolves to `),
        );
        expect(error.retryable).to.equal(false);
      }
      for (const name of NAMES_ALWAYS_REFUSED)
        expect((await refusedDelivery(`http://${name}:${sink.port}/hook`, true)).message).to.match(
          /cloud-metadata address/,
        );
      expect(sink.received).to.deep.equal([]);
      expect(await deliver(`http://rebind.test:${sink.port}/hook`, true)).to.equal(200);
      expect(sink.received).to.have.length(1);
    });

    it('should not follow a redirect: the delivery fails and the target sees nothing', async () => {
      const target = await startRequestSink();
      const redirecting = await startRequestSink((_req, res) =>
        res.writeHead(307, { location: `${target.url}/second` }).end(),
      );
      try {
        expect((await refusedDelivery(`${redirecting.url}/hook`, true)).message).to.equal(
          `Callback to ${redirecting.url}/hook answered 307.`,
        );
        expect(target.received).to.deep.equal([]);
      } finally {
        await Promise.all([target.close(), redirecting.close()]);
      }
    });
  });

  describe('method_ref clone hosts (git over http, /v1/execute)', () => {
    let root: string;
    let cacheDir: string;
    let git: GitServer;
    let repo: TestRepo;

    before(async () => {
      root = tempDir('mthds-ssrf-git-');
      cacheDir = tempDir('mthds-ssrf-cache-');
      git = await startGitServer(root);
      repo = new TestRepo(root, 'acme', 'probe');
      repo.write(HELLO_PACKAGE).commit('probe', 'v1.0.0');
    });

    after(async () => {
      await git.close();
      repo.dispose();
      rmSync(root, { recursive: true, force: true });
      rmSync(cacheDir, { recursive: true, force: true });
    });

    const port = () => new URL(git.baseUrl).port;
    const cloneApp = (host: string, allow: boolean) =>
      appWith({
        METHOD_REF_CLONE_URL_TEMPLATE: `http://${host}:${port()}/{owner}/{repo}.git`,
        METHOD_REF_ALLOW_PRIVATE_HOSTS: String(allow),
        METHOD_CACHE_DIR: cacheDir,
        METHOD_GIT_TIMEOUT_MS: '10000',
      });
    const run = (app: Express) =>
      request(app)
        .post('/v1/execute')
        .send({ method_ref: 'github.com/acme/probe@v1.0.0', inputs: { name: 'Ada' } });

    it(`should refuse ${REFUSED_WHEN_OFF.length} spellings and ${NAMES_REFUSED_WHEN_OFF.length} resolved names with 422 MethodFetchError while METHOD_REF_ALLOW_PRIVATE_HOSTS is off`, async () => {
      for (const host of [...REFUSED_WHEN_OFF, ...NAMES_REFUSED_WHEN_OFF]) {
        const response = await run(cloneApp(host, false));
        expect(response.status, host).to.equal(422);
        expect(response.body.error_type, host).to.equal('MethodFetchError');
        expect(response.body.detail, host)
          .to.match(/^The clone (URL of this method reference|host) is refused: /)
          .and.include('METHOD_REF_ALLOW_PRIVATE_HOSTS');
      }
      expect(git.contactCount()).to.equal(0);
    });

    it(`should still refuse ${ALWAYS_REFUSED_SPELLINGS.length} metadata and other non-public spellings and ${NAMES_ALWAYS_REFUSED.length} names resolving to metadata with the switch on`, async () => {
      for (const host of [...ALWAYS_REFUSED_SPELLINGS, ...NAMES_ALWAYS_REFUSED]) {
        const response = await run(cloneApp(host, true));
        expect(response.status, host).to.equal(422);
        expect(response.body.error_type, host).to.equal('MethodFetchError');
        expect(response.body.detail, host).to.match(/refused in every mode/);
      }
      expect(git.contactCount()).to.equal(0);
    });

    it(`should clone through ${LOOPBACK_SPELLINGS.length} loopback spellings and a loopback name pinned by curl's --resolve once the switch is on (positive control)`, async () => {
      for (const host of [...LOOPBACK_SPELLINGS, 'rebind.test']) {
        const before = git.contactCount();
        const response = await run(cloneApp(host, true));
        expect(response.status, `${host}: ${JSON.stringify(response.body)}`).to.equal(200);
        expect(git.contactCount(), host).to.be.greaterThan(before);
      }
    });
  });
});
