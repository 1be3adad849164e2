/**
 * What the run job processor needs (`run-processor.ts`): the run registry, the event log and the callback sender, the
 * runtime's ports, the run objects in storage and the step checkpoints, the holds and stops of runs, the quarantine,
 * and the run's limits.
 */
import type { Logger, Metrics } from '../../observability/index.js';
import type {
  DocumentExtractorPort,
  FanOutPort,
  IdSource,
  InferencePort,
  RunObserver,
  TemplateRenderer,
} from '../../runtime/index.js';
import type { RunResult } from '../../wire/index.js';
import type { RunCheckpoints } from '../checkpoints/index.js';
import type { RunControls, RunStopper } from '../control/index.js';
import type { RunEventLog } from '../events/index.js';
import type { FanOutRun, JobSeals, RunJob } from '../queue/index.js';
import type { RunStore } from '../registry/index.js';
import type { RunObjects } from '../storage/index.js';
import type { CallbackSink } from './callback-sender.js';

/** What the processor needs. */
export interface RunProcessorDeps {
  registry: RunStore;
  /** Where each attempt's events go (docs/run-events.md). */
  events: RunEventLog;
  /** Where a run's callbacks go when it ends (sent at once, retries queued). */
  callbacks: CallbackSink;
  /** Verifies the seal of each job before it is acted on (docs/run-ownership.md#queue-jobs). */
  seals: JobSeals;
  inference: InferencePort;
  extractor: DocumentExtractorPort;
  /** Renders the runs' templates (in isolated threads, docs/isolation.md#templates). */
  templates: TemplateRenderer;
  ids: IdSource;
  now(): number;
  logger: Logger;
  metrics: Metrics;
  /** Base of error `type_uri`s in reports. */
  docsUrl: string;
  /** Where offloaded payloads are read and finished runs kept (docs/storage.md). */
  objects: RunObjects;
  /** The runs' step checkpoints (docs/checkpoints.md); an in-process attempt reads and writes them. */
  checkpoints: RunCheckpoints;
  /** The runs this process holds: a stop aborts an attempt through its hold (docs/cancellation.md). */
  controls: RunControls;
  /** Stops a run at its deadline (`timeout_seconds`, docs/cancellation.md#deadlines). */
  stopper: RunStopper;
  /**
   * Run a job in quarantine (a separate process with resource limits), its pipe reports forwarded to `observer`.
   * @throws RunCrashedError when the quarantine process dies; the run's own error otherwise
   */
  runQuarantined(payload: RunJob, runJobId: string, observer: RunObserver, signal?: AbortSignal): Promise<RunResult>;
  /** Most children of a controller running at once (`BATCH_MAX_PARALLEL`; the runtime's default when absent). */
  batchConcurrency?: number;
  /** Most pipes one run starts, its children's included (`RUN_MAX_PIPES`; the runtime's default when absent). */
  maxPipes?: number;
  /**
   * The fan-out port of a run (docs/fan-out.md): its batch items and parallel branches run as child jobs; in-process
   * when absent (`RUN_FAN_OUT=false`, and always in quarantine).
   */
  fanOut?(run: FanOutRun): FanOutPort;
}

/** The outcome a run job returns to BullMQ. */
export interface RunJobOutcome {
  state: 'COMPLETED';
}
