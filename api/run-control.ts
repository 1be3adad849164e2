/**
 * The stops of an app's runs (docs/cancellation.md): the holds of the runs this API process runs (its direct runs),
 * and the stopper the cancel routes and the direct runs' deadlines stop runs with. With a queue backend a stop reaches
 * every process of the deployment over Redis, and a stopped run's queued job is removed and its callbacks enqueued;
 * without one, the API process is the only one.
 */
import type { Metrics } from '../shared/observability/index.js';
import {
  localStopBroadcast,
  RunControls,
  type RunEventLog,
  type RunObjects,
  RunStopper,
  type RunStore,
} from '../shared/orchestration/index.js';
import type { AppDeps } from './app-deps.js';

/** The holds of an app's runs and its stopper. */
export interface RunControl {
  controls: RunControls;
  stopper: RunStopper;
}

/**
 * Build an app's run control.
 * @param deps - the app's dependencies: settings, logger, clock, queue backend
 * @param runs - where its runs are recorded
 * @param objects - where finished runs are kept
 * @param metrics - the process's metrics
 */
export function runControl(
  deps: AppDeps,
  runs: { store: RunStore; events: RunEventLog },
  objects: RunObjects,
  metrics: Metrics,
): RunControl {
  const backend = deps.queueBackend;
  const controls = backend?.controls ?? new RunControls();
  const stopper = new RunStopper({
    store: runs.store,
    events: runs.events,
    objects,
    metrics,
    logger: deps.logger,
    now: deps.now ?? Date.now,
    docsUrl: deps.settings.errorDocsUrl,
    broadcast: backend?.stops ?? localStopBroadcast(controls),
    ...(backend ? { jobs: backend.runJobs, callbacks: backend.callbackQueue } : {}),
  });
  return { controls, stopper };
}
