/**
 * Local configuration cannot leak into the tests: an `api_override.toml` in the repository's `config/` (what the
 * README's queue-mode step leaves) changes nothing for them, because every helper runs in the tests' own empty
 * `SERVICE_CONFIG_DIR` (test/helpers/config-dir.ts). The override is written only when none is there, and removed
 * after; a developer's own file is used as it is and never touched.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { TEST_CONFIG_DIR, testSettings } from '../helpers/config-dir.js';
import { GREETING_BUNDLE } from '../helpers/greeting-bundle.js';
import { type ServiceProcess, spawnApi } from '../helpers/processes.js';

const LOCAL_OVERRIDE = fileURLToPath(new URL('../../config/api_override.toml', import.meta.url));

describe('local config overrides and the tests', function () {
  this.timeout(60000);
  let written = false;
  let api: ServiceProcess | undefined;

  before(() => {
    if (existsSync(LOCAL_OVERRIDE)) return;
    writeFileSync(LOCAL_OVERRIDE, 'orchestration_mode = "bullmq"\nallow_request_orchestration_mode_override = true\n');
    written = true;
  });

  after(async () => {
    await api?.stop();
    if (written) rmSync(LOCAL_OVERRIDE);
  });

  it("should give every helper the tests' own empty configuration directory", () => {
    expect(testSettings().serviceConfigDir).to.equal(TEST_CONFIG_DIR);
    expect(TEST_CONFIG_DIR).to.not.equal(join(process.cwd(), 'config'));
    expect(readdirSync(TEST_CONFIG_DIR)).to.deep.equal([]);
  });

  it('should boot a spawned API in the direct default despite config/api_override.toml', async () => {
    const spawned = await spawnApi({});
    api = spawned.api;
    const line = api.logs.find((entry) => String(entry['msg']).includes('listening'));
    expect(line).to.include({ orchestration_mode: 'direct' });
    const refusal = await fetch(`${spawned.baseUrl}/v1/start`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ mthds_contents: [GREETING_BUNDLE], inputs: { name: 'Ada' } }),
    });
    const refusalBody = (await refusal.json()) as { error_type: string; detail: string };
    expect(refusalBody, refusalBody.detail).to.include({ error_type: 'StartRequiresAsyncOrchestration' });
  });
});
