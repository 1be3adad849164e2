/**
 * The README's examples work as pasted: every `curl` command of its `bash` blocks is sent, as curl would send it, to
 * an in-process server set up as the README's section says (`npm start`'s defaults; a queue deployment with its
 * workers for the "Queue mode" section), and its answer must match what the README shows (status, and the JSON with
 * `…` where values vary). A GET whose run is still going is asked again until it matches (runs finish in the
 * background). The `js` callback verifier is run on a signature made by the runner's own signing code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { bodySignature } from '../../shared/orchestration/callbacks/callback-signature.js';
import { parseSkeleton, skeletonMismatches } from '../helpers/json-skeleton.js';
import { pollUntil } from '../helpers/poll.js';
import { type QueueDeployment, startQueueDeployment } from '../helpers/queue-app.js';
import { type CurlExample, curlExamples, scriptExamples } from '../helpers/readme-examples.js';
import { buildTestApp } from '../helpers/test-app.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const QUEUE_SECTION = /^Queue mode/;

interface Answer {
  status: number;
  body: unknown;
}

async function send(app: Express, example: CurlExample): Promise<Answer> {
  let pending = request(app)[example.method.toLowerCase() as 'get' | 'post'](example.path);
  for (const [name, value] of Object.entries(example.headers)) pending = pending.set(name, value);
  if (example.body !== undefined) {
    if (!('Content-Type' in example.headers)) pending = pending.type('form');
    pending = pending.send(example.body);
  }
  const response = await pending;
  return { status: response.status, body: response.body };
}

/** What is wrong with an answer, by the README's account of it. */
function departures(example: CurlExample, answer: Answer): string[] {
  const status = example.answer.status;
  const statusWrong = status === undefined ? answer.status < 200 || answer.status > 299 : answer.status !== status;
  const problems = statusWrong ? [`status ${answer.status} (expected ${status ?? '2xx'})`] : [];
  if (example.answer.skeleton !== undefined)
    problems.push(...skeletonMismatches(parseSkeleton(example.answer.skeleton), answer.body));
  return problems;
}

async function runExample(app: Express, example: CurlExample): Promise<void> {
  const answer =
    example.method === 'GET'
      ? await pollUntil(
          () => send(app, example),
          (value) => departures(example, value).length === 0,
          15000,
          100,
        ).catch(() => send(app, example))
      : await send(app, example);
  expect(
    departures(example, answer),
    `README line ${example.line}: ${example.command}\n${JSON.stringify(answer.body)}`,
  ).to.deep.equal([]);
}

describe('README examples, run as pasted', function () {
  this.timeout(60000);
  const examples = curlExamples(README);

  it('should find the curl examples of the quick start and of queue mode', () => {
    expect(examples.map((example) => `${example.section}: ${example.method} ${example.path}`)).to.deep.equal([
      'Quick start: POST /v1/execute',
      'Quick start: POST /v1/validate',
      'Queue mode: scaled runs on Redis: POST /v1/start',
      'Queue mode: scaled runs on Redis: GET /v1/runs/my-run-1/status',
      'Queue mode: scaled runs on Redis: GET /v1/runs/my-run-1/results',
    ]);
    expect(examples.every((example) => example.answer.skeleton !== undefined)).to.equal(true);
  });

  describe('against the default server (npm start)', () => {
    const app = buildTestApp();

    for (const example of examples.filter((candidate) => !QUEUE_SECTION.test(candidate.section))) {
      it(`should answer ${example.method} ${example.path} (README line ${example.line}) as shown`, async () => {
        await runExample(app, example);
      });
    }
  });

  describe('against a queue-mode deployment with its workers', () => {
    let deployment: QueueDeployment;

    before(() => {
      deployment = startQueueDeployment();
    });

    after(async () => {
      await deployment.close();
    });

    it('should answer each command of the section, in order, as shown', async () => {
      for (const example of examples.filter((candidate) => QUEUE_SECTION.test(candidate.section))) {
        await runExample(deployment.app, example);
      }
    });
  });

  describe('the callback verifier (js)', () => {
    let directory: string;

    before(() => {
      directory = mkdtempSync(join(tmpdir(), 'readme-js-'));
    });

    after(() => {
      rmSync(directory, { recursive: true, force: true });
    });

    it('should accept a fresh callback signed by the runner and refuse a changed body or a stale one', async () => {
      const [script] = scriptExamples(README);
      expect(script?.section).to.equal('Queue mode: scaled runs on Redis');
      const file = join(directory, 'verify.mjs');
      writeFileSync(file, `${script!.code}\nexport { verify };\n`);
      const { verify } = (await import(pathToFileURL(file).href)) as {
        verify(rawBody: string, header: string, secret: string, maxAgeSeconds?: number): boolean;
      };
      const body = '{"pipeline_run_id":"my-run-1","state":"COMPLETED"}';
      const now = Math.floor(Date.now() / 1000);
      expect(verify(body, bodySignature('s3cret', now, body), 's3cret')).to.equal(true);
      expect(verify(`${body} `, bodySignature('s3cret', now, body), 's3cret')).to.equal(false);
      expect(verify(body, bodySignature('s3cret', now - 3600, body), 's3cret')).to.equal(false);
      expect(verify(body, bodySignature('other', now, body), 's3cret')).to.equal(false);
    });
  });
});
