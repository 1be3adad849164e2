/**
 * Builds the API app for in-process tests (supertest), from an environment map and a silent logger, in the tests' own
 * empty configuration directory (`config-dir.ts`).
 */
import type { Express } from 'express';
import { createApp } from '../../api/app.js';
import { DiagnosticsPool } from '../../api/offload/diagnostics-pool.js';
import { type Environment, loadSettings } from '../../shared/config/index.js';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { createLogger } from '../../shared/observability/index.js';
import type { InferencePort, TemplateRenderer } from '../../shared/runtime/index.js';
import { testSettings } from './config-dir.js';

/** One diagnostics pool per distinct `COMPUTE_*` configuration, shared by every app of the test process. */
const pools = new Map<string, DiagnosticsPool>();

/**
 * Waits, budgets and idle time of the tests' pools unless a test sets its own: a thread's first start (module load,
 * formatter) can take tens of seconds on a loaded CI machine, and would otherwise read as a busy server; idle threads
 * stay for the whole run (they never keep the process alive).
 */
const PATIENT_COMPUTE: Environment = {
  COMPUTE_QUEUE_DEADLINE_MS: '180000',
  COMPUTE_TIMEOUT_MS: '180000',
  COMPUTE_IDLE_TIMEOUT_MS: '3600000',
};

/**
 * The shared diagnostics pool of a configuration: threads start on demand and leave when idle, so tests leak none.
 * @param environment - the variables the app is built from
 */
export function sharedDiagnostics(environment: Environment = {}): DiagnosticsPool {
  const compute = loadSettings({ ...PATIENT_COMPUTE, ...environment }).compute;
  const key = JSON.stringify(compute);
  let pool = pools.get(key);
  if (!pool) {
    pool = new DiagnosticsPool({ compute });
    pools.set(key, pool);
  }
  return pool;
}

/**
 * Build an app as `npm start` would, but from `environment` instead of `process.env`.
 * @param environment - variables to set (defaults apply to the rest)
 * @param inference - the backend runs call; by default the one the settings select (mock without `OPENAI_API_KEY`)
 * @param templates - renders the runs' templates; by default the render thread pool, as `npm start` wires it
 * @param now - the clock of the app's runs and run records, epoch ms; `Date.now` by default
 */
export function buildTestApp(
  environment: Environment = {},
  inference?: InferencePort,
  templates?: TemplateRenderer,
  now?: () => number,
): Express {
  const settings = testSettings(environment);
  const routed = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
  return createApp({
    settings,
    logger: createLogger('silent', 'test'),
    inference: inference ?? routed,
    modelDeck: routed.deck,
    diagnostics: sharedDiagnostics(environment),
    ...(templates ? { templates } : {}),
    ...(now ? { now } : {}),
  });
}

/**
 * Load the lazy dependencies (the formatter) of every thread of the shared diagnostics pool of a configuration, so
 * that a test's first `/v1/format` does not pay them.
 * @param environment - the variables the apps were built from
 */
export async function warmTestDiagnostics(environment: Environment = {}): Promise<void> {
  await sharedDiagnostics(environment).warm();
}
