import { expect } from 'chai';
import { type CallbackReceiver, startCallbackReceiver } from '../helpers/callback-receiver.js';
import { QUEUE_CONFIG_DIR } from '../helpers/config-dir.js';
import { sample } from '../helpers/corpus.js';
import { pollUntil } from '../helpers/poll.js';
import { type ServiceProcess, spawnApi, spawnService } from '../helpers/processes.js';
import { deletePrefix, TEST_REDIS_ENVIRONMENT, uniquePrefix } from '../helpers/redis.js';

/**
 * A run that is its own poison under a small heap: a slow greeting (so its first worker can be killed mid-run), then a
 * compose step repeating a 2 KiB filler 90 000 times (a ~180 MB text, far over a 64 MiB quarantine heap). The
 * deployment raises TEMPLATE_MAX_OUTPUT_KIB to 256 MiB, so the output budget does not refuse the render first.
 */
const POISON = `domain      = "poison"
description = "A run whose compose step builds a text far larger than a small quarantine heap"
main_pipe   = "greet_then_swell"

[pipe.greet_then_swell]
type        = "PipeSequence"
description = "Greet, then repeat the filler into one huge text"
inputs      = { name = "Text", filler = "Text" }
output      = "Text"
steps = [
  { pipe = "write_greeting", result = "greeting" },
  { pipe = "swell", result = "swollen" },
]

[pipe.write_greeting]
type        = "PipeLLM"
description = "Write a short greeting"
inputs      = { name = "Text" }
output      = "Text"
prompt      = "Write a short, friendly one-sentence greeting for $name."

[pipe.swell]
type        = "PipeCompose"
description = "Repeat the filler ninety thousand times"
inputs      = { filler = "Text", greeting = "Text" }
output      = "Text"
template    = "{{ greeting }}{% for i in range(300) %}{% for j in range(300) %}{{ filler }}{% endfor %}{% endfor %}"
`;

async function post(
  baseUrl: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function runStatus(baseUrl: string, runId: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl}/v1/runs/${runId}/status`, { signal: AbortSignal.timeout(5000) }).catch(
    () => undefined,
  );
  return response?.ok
    ? ((await response.json()) as Record<string, unknown>)
    : { status: `HTTP ${response?.status ?? 'error'}` };
}

/**
 * The usage a failure callback carries for a run whose worker died: the report of the calls its events recorded
 * before the death (none may have got out: null).
 */
function expectUsageSoFar(usage: unknown): void {
  if (usage === null) return;
  expect(usage).to.have.all.keys('total', 'by_model', 'by_pipe');
}

describe('run failures (spawned API and worker processes, real Redis)', function () {
  this.timeout(180000);
  const started: ServiceProcess[] = [];
  let prefix: string;
  let receiver: CallbackReceiver;

  beforeEach(async () => {
    prefix = uniquePrefix();
    receiver = await startCallbackReceiver([200]);
  });

  afterEach(async () => {
    await Promise.all(started.splice(0).map((service) => service.stop('SIGKILL')));
    await receiver.close();
    await deletePrefix(prefix).catch(() => undefined);
  });

  function environment(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...TEST_REDIS_ENVIRONMENT,
      QUEUE_PREFIX: prefix,
      SERVICE_CONFIG_DIR: QUEUE_CONFIG_DIR,
      COMPLETION_CALLBACK_SECRET: 'e2e-secret',
      CALLBACK_ALLOW_PRIVATE_HOSTS: 'true',
      ...extra,
    };
  }

  async function startWorker(extra: Record<string, string>): Promise<ServiceProcess> {
    const worker = spawnService('worker', environment(extra));
    started.push(worker);
    await worker.waitForLog((line) => line['msg'] === 'worker started', 60000);
    return worker;
  }

  describe('when a run kills its quarantine process', () => {
    it('should record it FAILED with a RunCrashedError report, call back with the failure, and keep the queue moving', async () => {
      const { api, baseUrl } = await spawnApi(environment());
      started.push(api);
      const slow = {
        MOCK_INFERENCE_LATENCY_MS: '3000',
        WORKER_LOCK_DURATION_MS: '1000',
        RUN_QUARANTINE_HEAP_MIB: '64',
        TEMPLATE_MAX_OUTPUT_KIB: '262144',
      };
      const doomed = await startWorker(slow);
      const ack = await post(baseUrl, '/v1/start', {
        pipeline_run_id: 'poison',
        mthds_contents: [POISON],
        inputs: { name: 'Ann', filler: 'x'.repeat(2048) },
        callback_urls: [receiver.url],
      });
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      await doomed.waitForLog((line) => line['msg'] === 'run:started' && line['pipeline_run_id'] === 'poison');
      await doomed.stop('SIGKILL');
      const rescuer = await startWorker(slow);

      const failed = await pollUntil(
        () => runStatus(baseUrl, 'poison'),
        (body) => body['status'] === 'FAILED',
        120000,
        250,
      );
      const report = {
        error_type: 'RunCrashedError',
        message:
          "Run 'poison' was stopped: its worker process died during an earlier attempt, so its one retake ran in a quarantine process, and that process ran out of memory (heap limit 64 MiB, RUN_QUARANTINE_HEAP_MIB). The run is not retried.",
        title: 'Run crashed',
        type_uri: '/errors/run-crashed-error/',
        error_domain: 'runtime',
        retryable: false,
        pipe_code: failed['error'] && (failed['error'] as { pipe_code: unknown }).pipe_code,
      };
      expect(failed['error']).to.deep.equal(report);
      // the pipe running when the quarantine died, as far as its events got out before it died: the swell step's
      // start may be lost with the process, leaving the greeting (finished) and so no running pipe
      expect([null, 'swell']).to.include(report.pipe_code);
      expect(
        rescuer.logs.some(
          (line) => String(line['msg']).startsWith('run:quarantined') && line['pipeline_run_id'] === 'poison',
        ),
      ).to.equal(true);
      expect((await fetch(`${baseUrl}/v1/runs/poison/results`)).status).to.equal(409);
      const [delivery] = await receiver.successes(1);
      const { usage, ...callback } = JSON.parse(delivery!.body);
      expect(callback).to.deep.equal({
        pipeline_run_id: 'poison',
        state: 'FAILED',
        status: 'FAILED',
        error: report,
      });
      expectUsageSoFar(usage);

      expect(
        (
          await post(baseUrl, '/v1/start', {
            pipeline_run_id: 'after-poison',
            mthds_contents: [sample('hello_greeting')],
            inputs: { name: 'Bo' },
          })
        ).status,
      ).to.equal(202);
      await pollUntil(
        () => runStatus(baseUrl, 'after-poison'),
        (body) => body['status'] === 'COMPLETED',
        60000,
        250,
      );
      expect(rescuer.child.exitCode, 'the poison never killed the rescuing worker').to.equal(null);
      expect(
        (
          await post(baseUrl, '/v1/start', {
            pipeline_run_id: 'poison',
            mthds_contents: [sample('hello_greeting')],
            inputs: { name: 'Cy' },
          })
        ).status,
        'the run id is released',
      ).to.equal(202);
    });
  });

  describe('when the worker of the quarantined retake dies too', () => {
    it('should record it FAILED with a RunCrashedError report naming both deaths, and call back with the failure', async () => {
      const { api, baseUrl } = await spawnApi(environment());
      started.push(api);
      const first = await startWorker({ MOCK_INFERENCE_LATENCY_MS: '3000', WORKER_LOCK_DURATION_MS: '1000' });
      const ack = await post(baseUrl, '/v1/start', {
        pipeline_run_id: 'twice',
        mthds_contents: [sample('hello_greeting')],
        inputs: { name: 'Ed' },
        callback_urls: [receiver.url],
      });
      expect(ack.status, JSON.stringify(ack.body)).to.equal(202);
      await first.waitForLog((line) => line['msg'] === 'run:started' && line['pipeline_run_id'] === 'twice');
      await first.stop('SIGKILL');
      const second = await startWorker({ MOCK_INFERENCE_LATENCY_MS: '60000', WORKER_LOCK_DURATION_MS: '1000' });
      await second.waitForLog(
        (line) => String(line['msg']).startsWith('run:quarantined') && line['pipeline_run_id'] === 'twice',
        120000,
      );
      await second.stop('SIGKILL');
      const third = await startWorker({ WORKER_LOCK_DURATION_MS: '1000' });

      const failed = await pollUntil(
        () => runStatus(baseUrl, 'twice'),
        (body) => body['status'] === 'FAILED',
        120000,
        250,
      );
      const report = {
        error_type: 'RunCrashedError',
        message:
          "Run 'twice' was stopped: the process running it died 2 times (its worker during the first attempt, then the worker of its quarantined retake). The run is not retried.",
        title: 'Run crashed',
        type_uri: '/errors/run-crashed-error/',
        error_domain: 'runtime',
        retryable: false,
        pipe_code: failed['error'] && (failed['error'] as { pipe_code: unknown }).pipe_code,
      };
      expect(failed['error']).to.deep.equal(report);
      // the pipe the last progress recorded as running: the greeting, unless each worker died before its first pipe
      // event reached Redis
      expect([null, 'write_greeting']).to.include(report.pipe_code);
      expect(
        third.logs.some((line) => line['msg'] === 'run:started' && line['pipeline_run_id'] === 'twice'),
        'a run stalled twice is never run again',
      ).to.equal(false);
      const [delivery] = await receiver.successes(1);
      const { usage, ...callback } = JSON.parse(delivery!.body);
      expect(callback).to.deep.equal({
        pipeline_run_id: 'twice',
        state: 'FAILED',
        status: 'FAILED',
        error: report,
      });
      expectUsageSoFar(usage);
    });
  });
});
