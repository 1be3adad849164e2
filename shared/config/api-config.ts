/**
 * The deployment's orchestration settings, from the layered `api.toml` family (spec §1.1): the packaged `api.toml`,
 * then `api_{SERVICE_ENV}.toml`, then `api_override.toml` from `SERVICE_CONFIG_DIR`. Later layers override earlier
 * ones; keys sit at the file root; an unknown key, a malformed file or an incoherent combination refuses to boot.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { z } from 'zod';
import { SettingsError } from './settings.js';

/** The orchestration settings of a deployment. */
export interface ApiConfig {
  /** Backend a top-level run dispatches to: `direct`, `bullmq`, or any token (which fails at dispatch). */
  orchestrationMode: string;
  /** Whether a request may choose another mode (`orchestration_mode`). */
  allowRequestOrchestrationModeOverride: boolean;
}

const LAYER = z.strictObject({
  orchestration_mode: z.string().trim().min(1).optional(),
  allow_request_orchestration_mode_override: z.boolean().optional(),
});

const PACKAGED = new URL('./api.toml', import.meta.url);

function readLayer(path: string | URL, label: string): z.infer<typeof LAYER> {
  let data: unknown;
  try {
    data = parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SettingsError([`${label}: not valid TOML (${(error as Error).message.split('\n')[0]})`]);
  }
  const layer = LAYER.safeParse(data);
  if (!layer.success)
    throw new SettingsError(
      layer.error.issues.map((issue) => `${label}: ${issue.path.join('.') || 'file'}: ${issue.message}`),
    );
  return layer.data;
}

/**
 * Read and merge the layers.
 * @param configDir - `SERVICE_CONFIG_DIR`; missing layer files are skipped
 * @param serviceEnv - `SERVICE_ENV`, selecting `api_{SERVICE_ENV}.toml`
 * @throws SettingsError for a malformed layer, an unknown key, or override allowed with the `direct` default
 *   (boot coherence, spec §1.1 rule 1)
 */
export function loadApiConfig(configDir: string, serviceEnv: string): ApiConfig {
  const layers = [readLayer(PACKAGED, 'packaged api.toml')];
  for (const name of [`api_${serviceEnv}.toml`, 'api_override.toml']) {
    const path = join(configDir, name);
    if (existsSync(path)) layers.push(readLayer(path, path));
  }
  const merged = Object.assign({}, ...layers) as z.infer<typeof LAYER>;
  const config: ApiConfig = {
    orchestrationMode: merged.orchestration_mode ?? 'direct',
    allowRequestOrchestrationModeOverride: merged.allow_request_orchestration_mode_override ?? false,
  };
  if (config.allowRequestOrchestrationModeOverride && config.orchestrationMode === 'direct') {
    throw new SettingsError([
      'api.toml: allow_request_orchestration_mode_override = true needs a non-direct orchestration_mode (a direct deployment cannot serve other modes); set orchestration_mode = "bullmq" or turn the override off',
    ]);
  }
  return config;
}
