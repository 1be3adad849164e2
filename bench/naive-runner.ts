/**
 * The naive anchor of `bench/hot-path.ts`: what a team writes in an afternoon from the design card, a process of its
 * own run with `node --import tsx bench/naive-runner.ts <role>`. It shares no code with the service.
 *
 * - `api`: an Express 5 app whose `POST /start` checks that the body is an object with a callback URL, adds the body
 *   to a BullMQ queue under a fresh id and answers `202 {"id"}`.
 * - `worker`: a BullMQ worker that makes one chat completion call (OpenAI wire format, `fetch`) with the run's inputs,
 *   then POSTs `{"pipeline_run_id", "state": "COMPLETED", "output", "usage"}` to the first callback URL, signed with
 *   an HMAC-SHA256 of the body in `X-Signature`, from the worker itself.
 *
 * Environment: `REDIS_URL`, `PORT` (api; 0 picks one), `LLM_BASE_URL` (ending in `/v1`), `LLM_API_KEY`,
 * `CALLBACK_SECRET`, `WORKER_CONCURRENCY` (worker). Each role writes one JSON line to stdout once ready:
 * `{"msg":"listening","port":N}` or `{"msg":"worker started"}`; SIGTERM closes it.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { Queue, Worker } from 'bullmq';
import express from 'express';

/** The anchor's queue. */
const QUEUE = 'runs';

/** What the API enqueues: the request body, as it came. */
interface RunRequest {
  inputs?: unknown;
  callback_urls: string[];
}

/** The parts of a chat completion answer the worker reads. */
interface ChatCompletion {
  choices: { message: { content: string } }[];
  usage?: unknown;
}

const connection = { url: process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379' };

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

function startApi(): void {
  const queue = new Queue(QUEUE, { connection });
  const app = express();
  app.use(express.json({ limit: '10mb' }));
  app.post('/start', async (req, res) => {
    const body = req.body as Partial<RunRequest> | undefined;
    if (typeof body !== 'object' || !Array.isArray(body.callback_urls) || typeof body.callback_urls[0] !== 'string') {
      res.status(400).json({ error: 'callback_urls is required' });
      return;
    }
    const id = randomUUID();
    await queue.add('run', body, {
      jobId: id,
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 5000 },
    });
    res.status(202).json({ id });
  });
  const server = app.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port })}\n`);
  });
  process.once('SIGTERM', () => {
    server.close();
    void queue.close().then(() => process.exit(0));
  });
}

function startWorker(): void {
  const baseUrl = required('LLM_BASE_URL');
  const apiKey = required('LLM_API_KEY');
  const secret = required('CALLBACK_SECRET');
  const worker = new Worker<RunRequest>(
    QUEUE,
    async (job) => {
      const answer = await fetch(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: `Answer for these inputs: ${JSON.stringify(job.data.inputs)}` }],
        }),
      });
      if (!answer.ok) throw new Error(`the provider answered ${answer.status}`);
      const completion = (await answer.json()) as ChatCompletion;
      const body = JSON.stringify({
        pipeline_run_id: job.id,
        state: 'COMPLETED',
        output: completion.choices[0]?.message.content,
        usage: completion.usage,
      });
      const delivered = await fetch(job.data.callback_urls[0]!, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-signature': createHmac('sha256', secret).update(body).digest('hex'),
        },
        body,
      });
      if (!delivered.ok) throw new Error(`the callback answered ${delivered.status}`);
    },
    { connection, concurrency: Number(process.env['WORKER_CONCURRENCY'] ?? 1) },
  );
  void worker.waitUntilReady().then(() => process.stdout.write(`${JSON.stringify({ msg: 'worker started' })}\n`));
  process.once('SIGTERM', () => {
    void worker.close().then(() => process.exit(0));
  });
}

const role = process.argv[2];
if (role === 'api') startApi();
else if (role === 'worker') startWorker();
else throw new Error(`usage: naive-runner.ts api|worker (got ${role ?? 'nothing'})`);
