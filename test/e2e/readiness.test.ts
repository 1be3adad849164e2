import { expect } from 'chai';
import { pollUntil } from '../helpers/poll.js';
import { type ServiceProcess, spawnApi } from '../helpers/processes.js';

/** Status and body of a GET. */
async function get(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('readiness of a started API (spawned process)', function () {
  this.timeout(180000);
  let api: ServiceProcess | undefined;

  afterEach(async () => {
    await api?.stop();
    api = undefined;
  });

  it('should answer /health at once and /ready 200 once its diagnostics thread and formatter are loaded', async () => {
    const spawned = await spawnApi({ COMPUTE_THREADS: '1', COMPUTE_WARM_THREADS: '1' });
    api = spawned.api;
    expect((await get(`${spawned.baseUrl}/health`)).status).to.equal(200);
    const ready = await pollUntil(
      () => get(`${spawned.baseUrl}/ready`),
      (answer) => answer.status !== 503,
      150000,
      100,
    );
    expect(ready).to.deep.equal({
      status: 200,
      body: { status: 'ready', checks: { diagnostics_threads: 'ok', control_plane_database: 'ok' } },
    });
    const formatted = await fetch(`${spawned.baseUrl}/v1/format`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'domain="demo"\n' }),
    });
    expect(await formatted.json()).to.deep.equal({ formatted: 'domain = "demo"\n', changed: true, diagnostics: [] });
  });
});
