/**
 * An in-process app with a control plane (docs/control-plane.md), for the suites of what it keeps: built as
 * `buildTestApp` builds one (mock inference, the tests' configuration directory), with an open database passed in.
 */
import type { Express } from 'express';
import { type AppDeps, createApp } from '../../api/app.js';
import type { Environment } from '../../shared/config/index.js';
import type { ControlPlaneDatabase } from '../../shared/database/index.js';
import { selectInferenceBackend } from '../../shared/inference/index.js';
import { ResourceStack } from '../../shared/lifecycle/index.js';
import { createLogger } from '../../shared/observability/index.js';
import { testSettings } from './config-dir.js';
import { sharedDiagnostics } from './test-app.js';

/** The background work of the apps built since the last {@link closeControlPlaneApps} (history writers, sweeps). */
let open = new ResourceStack();

/** Stop the background work of every app built so far (a suite's `afterEach`, before its database closes). */
export async function closeControlPlaneApps(): Promise<void> {
  const closing = open;
  open = new ResourceStack();
  await closing.close();
}

/**
 * Build an app on a control plane; {@link closeControlPlaneApps} stops its background work.
 * @param database - the open control plane (the test closes it)
 * @param environment - variables to set (defaults apply to the rest)
 * @param now - the app's clock, epoch ms (key expiry and the key cache read it); `Date.now` by default
 * @param deps - other dependencies of the app (the catalog's erasure scheduler)
 */
export function buildControlPlaneApp(
  database: ControlPlaneDatabase,
  environment: Environment = {},
  now?: () => number,
  deps: Pick<AppDeps, 'methodErasure'> = {},
): Express {
  const settings = testSettings(environment);
  const routed = selectInferenceBackend(settings.inference, settings.serviceConfigDir, environment);
  return createApp({
    settings,
    logger: createLogger('silent', 'test'),
    inference: routed,
    modelDeck: routed.deck,
    diagnostics: sharedDiagnostics(environment),
    controlPlane: Promise.resolve(database),
    resources: open,
    ...(now ? { now } : {}),
    ...deps,
  });
}
