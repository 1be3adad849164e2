/**
 * Choosing the orchestrator of a request (spec §1.1): the deployment default, or a requested token when the deployment
 * allows overrides; the token must name a registered orchestrator (`direct`, `bullmq`).
 */
import type { ApiConfig } from '../shared/config/index.js';
import { MissingOrchestratorError, OrchestrationModeOverrideForbidden } from '../shared/errors/index.js';
import type { Orchestrator } from '../shared/orchestration/index.js';

/**
 * The mode a request runs under.
 * @param requested - the request's `orchestration_mode`, if any
 * @param config - the deployment's `api.toml` settings
 * @returns the default when nothing (or the default itself) is requested, else the requested token when allowed
 * @throws OrchestrationModeOverrideForbidden (403) when another token is requested and overrides are off
 */
function resolveOrchestrationMode(requested: string | null | undefined, config: ApiConfig): string {
  if (requested === null || requested === undefined || requested === config.orchestrationMode)
    return config.orchestrationMode;
  if (config.allowRequestOrchestrationModeOverride) return requested;
  throw new OrchestrationModeOverrideForbidden(
    `This deployment does not allow overriding orchestration_mode per request (configured mode '${config.orchestrationMode}', requested '${requested}').`,
  );
}

/**
 * Which orchestration modes a deployment accepts: plain data, so the check can run in a diagnostics thread
 * (`/v1/validate` checks its `orchestration_mode` there, before the verdict).
 */
export interface ModePolicy {
  /** The deployment's `api.toml` settings. */
  config: ApiConfig;
  /** The tokens with a registered orchestrator. */
  registered: string[];
}

/**
 * The mode a request runs under, checked against the deployment's registered orchestrators.
 * @param requested - the request's `orchestration_mode`
 * @param policy - the deployment's settings and registered tokens
 * @returns the mode's token
 * @throws OrchestrationModeOverrideForbidden (403); MissingOrchestratorError (500) for an unregistered token
 */
export function checkOrchestrationMode(requested: string | null | undefined, policy: ModePolicy): string {
  const mode = resolveOrchestrationMode(requested, policy.config);
  if (!policy.registered.includes(mode)) {
    throw new MissingOrchestratorError(
      `Orchestration mode '${mode}' has no registered orchestrator on this deployment (registered: ${policy.registered.join(', ')}).`,
    );
  }
  return mode;
}

/** The orchestrators of a deployment and its `api.toml` settings. */
export class Orchestration {
  constructor(
    readonly config: ApiConfig,
    private readonly orchestrators: ReadonlyMap<string, Orchestrator>,
  ) {}

  /**
   * The orchestrator of a request.
   * @param requested - the request's `orchestration_mode`
   * @throws OrchestrationModeOverrideForbidden (403); MissingOrchestratorError (500) for an unregistered token
   */
  select(requested: string | null | undefined): Orchestrator {
    return this.orchestrators.get(checkOrchestrationMode(requested, this.modePolicy()))!;
  }

  /** The modes this deployment accepts, as plain data. */
  modePolicy(): ModePolicy {
    return { config: this.config, registered: [...this.orchestrators.keys()] };
  }
}
