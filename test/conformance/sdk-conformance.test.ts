/**
 * Conformance of this server with its official clients and the reference contract (docs/conformance.md): the real
 * MTHDS JS SDK and its `mthds` CLI, unchanged (`../shared/clients/mthds-js` or `MTHDS_JS_DIR`), drive every public
 * method of `MthdsApiClient` and the CLI's `run`, `validate` and `build` commands against this server on a real port,
 * in direct mode and in queue mode (real Redis). Each call passes, or fails exactly as the SDK method matrix records
 * (`test/fixtures/conformance/sdk-matrix.json`). Every response of every exchange is checked against the reference
 * OpenAPI (`../shared/reference/pipelex-api.openapi.yaml`) with ajv; any difference missing from the documented list
 * (`test/fixtures/conformance/reference-differences.json`) fails the suite.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { type CliRun, mthdsJsAbsence, mthdsJsClient, mthdsJsMethodNames, runMthdsCli } from '../helpers/mthds-js.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { buildTestApp } from '../helpers/test-app.js';
import { generatedSection, renderDifferences, renderMatrix, withGeneratedSection } from './conformance-doc.js';
import { accountsFor, checkExchange, documentedDifferences } from './reference-differences.js';
import {
  CASES,
  type CaseContext,
  type ConformanceCase,
  describeOutcome,
  type Mode,
  type Outcome,
  type SdkError,
  WORK_FILES,
} from './sdk-cases.js';
import { failsAsRecorded, type MatrixCell, sdkMatrix } from './sdk-matrix.js';

const MODES: readonly Mode[] = ['direct', 'queue'];
const MATRIX = sdkMatrix();
const DOCUMENTED = documentedDifferences();
const DOC = new URL('../../docs/conformance.md', import.meta.url);

function cellTitle(cell: MatrixCell): string {
  if (cell.outcome === 'pass') return 'passes';
  return `${cell.outcome === 'unsupported' ? 'expected-unsupported' : `pending: ${cell.work}`} (${cell.reason})`;
}

/** Run a case and collect the requests it sent to either server. */
async function play(kase: ConformanceCase, context: CaseContext, servers: RecordingServer[]): Promise<Outcome> {
  const before = servers.map((server) => server.exchanges.length);
  const sent = () => servers.flatMap((server, index) => server.exchanges.slice(before[index]));
  try {
    const value = await kase.run(context);
    return kase.surface === 'cli'
      ? { kind: 'exited', run: value as CliRun, requests: sent() }
      : { kind: 'resolved', value: value as Record<string, unknown>, requests: sent() };
  } catch (error) {
    return { kind: 'rejected', error: error as SdkError, requests: sent() };
  }
}

/** The `run`, `validate` and `build` commands the CLI's help lists, `method|pipe` alternatives spelled out. */
function listedCommands(help: string): string[] {
  return help
    .split('\n')
    .map((line) => line.trim().split(/\s{2,}/)[0]!)
    .filter((usage) => /^(run|validate|build) /.test(usage))
    .flatMap((usage) => {
      const words = usage.split(' ').filter((word) => !word.startsWith('<'));
      const last = words.pop()!;
      return last.split('|').map((alternative) => `mthds ${[...words, alternative].join(' ')}`);
    });
}

describe('conformance with the official JS SDK, its CLI and the reference OpenAPI', function () {
  // each CLI run starts a Node process and the run commands poll every 2 s; the first requests start threads
  this.timeout(120000);
  const observed = new Set<string>();
  const tally = { exchanges: 0, schemaChecks: 0, cells: 0 };
  let workDir: string;

  before(function () {
    const absence = mthdsJsAbsence();
    if (absence) {
      console.log(`    skipped: ${absence}`);
      this.skip();
    }
    workDir = mkdtempSync(join(tmpdir(), 'mthds-conformance-'));
    for (const [name, text] of Object.entries(WORK_FILES)) writeFileSync(join(workDir, name), text);
  });

  after(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
    if (tally.exchanges > 0)
      console.log(
        `    reference OpenAPI: ${tally.exchanges} responses checked, ${tally.schemaChecks} bodies validated against its schemas`,
      );
  });

  describe('coverage', () => {
    it('should have one case per matrix entry and one matrix entry per case', () => {
      expect(MATRIX.cases.map((entry) => entry.id).sort()).to.deep.equal(Object.keys(CASES).sort());
    });

    it('should call every public method of MthdsApiClient', async () => {
      const names = await mthdsJsMethodNames();
      expect(names).to.include.members(MATRIX.privateMethods.names);
      const publicMethods = names.filter((name) => !MATRIX.privateMethods.names.includes(name));
      expect(publicMethods).to.have.length(15);
      const surfaces = new Set(MATRIX.cases.map((entry) => entry.surface));
      expect(publicMethods.filter((name) => !surfaces.has(name))).to.deep.equal([]);
    });

    it('should run every run, validate and build command the CLI lists', async () => {
      const help = await runMthdsCli(['--help'], { baseUrl: 'http://127.0.0.1:1', home: workDir, cwd: workDir });
      const commands = listedCommands(help.stdout);
      expect(commands).to.have.length(10);
      const surfaces = new Set(MATRIX.cases.map((entry) => entry.surface));
      expect(commands.filter((command) => !surfaces.has(command))).to.deep.equal([]);
    });
  });

  for (const mode of MODES) {
    describe(`in ${mode} mode`, () => {
      const queues: QueueDeployment[] = [];
      const servers: RecordingServer[] = [];
      let context: CaseContext;

      before(async () => {
        let app = buildTestApp();
        let idleApp = app;
        if (mode === 'queue') {
          const [working, idle] = [startQueueDeployment(), startQueueDeployment({ workers: false })];
          queues.push(working, idle);
          app = working.app;
          idleApp = idle.app;
        }
        const main = await startRecordingServer(app);
        servers.push(main);
        const idle = idleApp === app ? main : await startRecordingServer(idleApp);
        if (idle !== main) servers.push(idle);
        context = {
          mode,
          client: await mthdsJsClient(main.baseUrl),
          idleClient: await mthdsJsClient(idle.baseUrl),
          cli: (...args) => runMthdsCli(args, { baseUrl: main.baseUrl, home: workDir, cwd: workDir }),
          workDir,
        };
      });

      after(async () => {
        for (const server of servers) await server.close();
        for (const deployment of queues) await deployment.close();
      });

      for (const entry of MATRIX.cases) {
        const cell = entry[mode];
        it(`${entry.id}: ${entry.call} ${cellTitle(cell)}`, async () => {
          const kase = CASES[entry.id];
          if (!kase) expect.fail(`no case '${entry.id}' in sdk-cases.ts`);
          const outcome = await play(kase, context, servers);
          tally.cells += 1;
          if (cell.outcome === 'pass') {
            kase.check(outcome, context);
            return;
          }
          if (failsAsRecorded(outcome, cell.fails)) return;
          let passes = true;
          try {
            kase.check(outcome, context);
          } catch {
            passes = false;
          }
          expect.fail(
            passes
              ? `${entry.id} now passes in ${mode} mode: set its ${mode} cell to pass in test/fixtures/conformance/sdk-matrix.json and update docs/conformance.md`
              : `${entry.id} no longer fails as recorded (${JSON.stringify(cell.fails)}): ${describeOutcome(outcome)}`,
          );
        });
      }

      it('should answer every exchange as the reference OpenAPI declares, or as a documented difference', () => {
        const undocumented: string[] = [];
        for (const exchange of servers.flatMap((server) => server.exchanges)) {
          const verdict = checkExchange(exchange, DOCUMENTED);
          tally.exchanges += 1;
          tally.schemaChecks += verdict.schemaChecks;
          for (const found of verdict.differences) {
            const entries = DOCUMENTED.filter((entry) => accountsFor(entry, found));
            if (entries.length === 0) undocumented.push(`${exchange.method} ${exchange.url} → ${found.message}`);
            for (const entry of entries) observed.add(entry.id);
          }
        }
        expect([...new Set(undocumented)]).to.deep.equal([]);
      });
    });
  }

  describe('the documented lists', () => {
    it('should observe every documented difference (an entry nothing shows any more must go)', function () {
      if (tally.cells < MATRIX.cases.length * MODES.length) this.skip();
      expect(DOCUMENTED.map((entry) => entry.id).filter((id) => !observed.has(id))).to.deep.equal([]);
    });

    it('should show in docs/conformance.md the matrix and the differences the suite enforces', () => {
      const sections = { 'sdk-matrix': renderMatrix(MATRIX), 'reference-differences': renderDifferences(DOCUMENTED) };
      if (process.env['UPDATE_CONFORMANCE_DOC'] === '1') {
        let doc = readFileSync(DOC, 'utf8');
        for (const [name, text] of Object.entries(sections)) doc = withGeneratedSection(doc, name, text);
        writeFileSync(DOC, doc);
      }
      const doc = readFileSync(DOC, 'utf8');
      for (const [name, text] of Object.entries(sections))
        expect(generatedSection(doc, name), `the ${name} section (UPDATE_CONFORMANCE_DOC=1 rewrites it)`).to.equal(
          text,
        );
    });
  });
});
