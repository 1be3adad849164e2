/**
 * The `rate_limits` keys of the inference configuration (docs/inference.md#rate-limits): read from `backends.toml`
 * and from model specs, validated at load.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { PipelexConfigError } from '../../../shared/errors/index.js';
import { loadInferenceConfig } from '../../../shared/inference/index.js';

describe('rate_limits in the inference configuration', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mthds-rate-limits-'));
    mkdirSync(join(dir, 'backends'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (file: string, text: string) => writeFileSync(join(dir, file), text);

  it('should read a backend and a model limit', () => {
    write('backends.toml', '[openai]\nrate_limits = { requests_per_minute = 500, max_concurrent = 20 }\n');
    write(
      'backends/openai.toml',
      '[defaults]\nsdk = "openai"\n["gpt-4.1"]\nmodel_type = "llm"\nrate_limits = { tokens_per_minute = 30000 }\n',
    );
    const config = loadInferenceConfig(dir, {});
    expect(config.backends['openai']?.rate_limits).to.deep.equal({ requests_per_minute: 500, max_concurrent: 20 });
    expect(config.models['openai']?.['gpt-4.1']?.rate_limits).to.deep.equal({ tokens_per_minute: 30000 });
  });

  it('should refuse a zero, a fraction or an unknown key, naming the file and the key', () => {
    for (const [limits, key] of [
      ['{ requests_per_minute = 0 }', 'rate_limits.requests_per_minute'],
      ['{ tokens_per_minute = 1.5 }', 'rate_limits.tokens_per_minute'],
      ['{ requests_per_second = 3 }', 'rate_limits'],
    ] as const) {
      write('backends.toml', `[openai]\nrate_limits = ${limits}\n`);
      expect(() => loadInferenceConfig(dir, {}), limits)
        .to.throw(PipelexConfigError)
        .with.property('message')
        .that.includes('backends.toml [openai]')
        .and.includes(key);
    }
    write('backends.toml', '[openai]\n');
    write('backends/openai.toml', '["gpt-4.1"]\nrate_limits = { max_concurrent = -1 }\n');
    expect(() => loadInferenceConfig(dir, {}))
      .to.throw(PipelexConfigError)
      .with.property('message')
      .that.includes('backends/openai.toml [gpt-4.1]');
  });
});
