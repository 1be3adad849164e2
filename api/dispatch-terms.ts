/**
 * The owners' terms at the dispatch gate (docs/fair-dispatch.md#shares): the deployment's settings, and each
 * organization's own share and priority ceiling where the control plane keeps them.
 */
import { Organizations } from '../shared/database/index.js';
import { type DispatchPolicy, dispatchPolicy } from '../shared/orchestration/index.js';
import type { AppDeps } from './app-deps.js';

/**
 * The dispatch policy of the application.
 * @param deps - the settings and the control plane, if any
 */
export function dispatchTermsOf(deps: Pick<AppDeps, 'settings' | 'controlPlane'>): DispatchPolicy {
  const organizations = deps.controlPlane?.then((database) => new Organizations(database));
  // the entry point that opened the database reports its failure; this derived promise must not report it again
  organizations?.catch(() => undefined);
  return dispatchPolicy(
    deps.settings.dispatch,
    organizations ? async (owner) => (await organizations).find(owner) : undefined,
  );
}
