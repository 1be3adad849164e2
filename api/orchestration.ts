/**
 * Per-request orchestration mode resolution (spec §1.1): the deployment default, or a requested token when the
 * deployment allows overrides. This deployment serves the `direct` (in-process) mode only.
 */
import { OrchestrationModeOverrideForbidden } from '../shared/errors/index.js';

/** The deployment's orchestration settings (spec §1.1 `api.toml` keys). */
export interface OrchestrationSettings {
  defaultMode: string;
  allowRequestOverride: boolean;
}

/** Embedded defaults: in-process runs, no per-request override. */
export const DEFAULT_ORCHESTRATION: OrchestrationSettings = { defaultMode: 'direct', allowRequestOverride: false };

/**
 * The mode a request runs under.
 * @param requested - the request's `orchestration_mode`, if any
 * @param settings - the deployment's settings
 * @returns the default when nothing (or the default itself) is requested, else the requested token when allowed
 * @throws OrchestrationModeOverrideForbidden (403) when another token is requested and overrides are off
 */
export function resolveOrchestrationMode(requested: string | null | undefined, settings: OrchestrationSettings): string {
  if (requested === null || requested === undefined || requested === settings.defaultMode) return settings.defaultMode;
  if (settings.allowRequestOverride) return requested;
  throw new OrchestrationModeOverrideForbidden(
    `This deployment does not allow overriding orchestration_mode per request (configured mode '${settings.defaultMode}', requested '${requested}').`,
  );
}
