/**
 * What the benchmarks ask of the service: start it in direct mode, POST a JSON body, wait for a run to complete.
 */
import { createApp } from '../api/app.js';
import { loadSettings } from '../shared/config/index.js';
import { selectInferenceBackend } from '../shared/inference/index.js';
import { createLogger } from '../shared/observability/index.js';
import { type ListeningServer, listen } from './anchors.js';

/**
 * Start the API in this process on 127.0.0.1 in direct mode, on mock inference, with the default settings.
 * @param overrides - environment variables set on top (e.g. the `method_ref` clone URL template)
 */
export function startDirectService(overrides: Record<string, string> = {}): Promise<ListeningServer> {
  const environment = { ...overrides, INFERENCE_PROFILE: 'mock', LOG_LEVEL: 'silent' };
  const settings = loadSettings(environment);
  const inference = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
  const app = createApp({ settings, logger: createLogger('silent', 'bench'), inference, modelDeck: inference.deck });
  return listen(app.listen(0, '127.0.0.1'));
}

/**
 * POST a JSON body and read the JSON answer.
 * @param url - the route's full URL
 * @param body - the request body
 * @throws Error with the status and body when the answer is not 2xx
 */
export async function postJson(url: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (answer.status >= 300) throw new Error(`POST ${url}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as Record<string, unknown>;
}

/**
 * Poll a run's status until it is COMPLETED.
 * @param base - the service's base URL
 * @param runId - the `pipeline_run_id`
 * @param pauseMs - pause between two polls, in ms
 * @throws Error when the run FAILED
 */
export async function untilCompleted(base: string, runId: string, pauseMs: number): Promise<void> {
  for (;;) {
    const status = (await (await fetch(`${base}/v1/runs/${runId}/status`)).json()) as { state?: string };
    if (status.state === 'COMPLETED') return;
    if (status.state === 'FAILED') throw new Error(`run ${runId} failed`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
