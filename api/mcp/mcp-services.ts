/**
 * What the MCP endpoint (docs/mcp.md) reads and calls: the same services the HTTP routes use — the run path of
 * `POST /v1/start`, the run store and event log of the lifecycle routes, the stopper of the cancel route, the answerer
 * of the diagnostic routes, the methods catalog — and who calls, per HTTP request.
 */
import type { Request } from 'express';
import type { ErrorDisclosure } from '../../shared/errors/index.js';
import type { Logger } from '../../shared/observability/index.js';
import type {
  CatalogChanges,
  RunEventLog,
  RunObjects,
  RunStopper,
  RunStore,
} from '../../shared/orchestration/index.js';
import type { MethodCatalog } from '../method-catalog.js';
import type { Identity } from '../middleware/authenticate.js';
import type { DiagnosticAnswerer } from '../routes/diagnostics.js';
import type { RunRouteOptions } from '../routes/run.js';
import type { StorageLinks } from '../storage-links.js';

/** The app's services the endpoint uses. */
export interface McpServices {
  /** The run routes' dependencies: a tool call starts its run as `POST /v1/start` does. */
  runs: RunRouteOptions;
  /** The run records (status, results). */
  store: RunStore;
  /** The runs' events: a call's progress, and the end it waits for. */
  events: RunEventLog;
  /** Finished runs kept in storage, read once their record expired. */
  objects: RunObjects;
  /** Signs the links of stored files in results (docs/uploads.md#in-results). */
  links: StorageLinks;
  /** `ERROR_DISCLOSURE`: how much of a failed run's error report callers see. */
  disclosure: ErrorDisclosure;
  /** Stops runs (a cancelled call). */
  stopper: RunStopper;
  /** Answers the diagnostic routes' requests (the validation and template tools, the method tools' schemas). */
  diagnose: DiagnosticAnswerer;
  /** The methods catalog, when this deployment serves one: its published versions are the method tools. */
  catalog?: Promise<MethodCatalog> | undefined;
  /** Where catalog changes are heard (the tool list of a listening client). */
  changes: CatalogChanges;
  /** `MCP_CALL_WAIT_SECONDS` in ms: how long a call waits for its run before it answers with the run's id. */
  callWaitMs: number;
  /**
   * The calls that may follow their run's events at once in this process (each holds a Redis connection in queue
   * mode): `RUN_EVENT_STREAMS_MAX`; a call beyond answers its run's id at once.
   */
  waits: WaitSlots;
  /** `ERROR_DOCS_URL`: the base of the `type` URIs of the problem documents a failed tool call carries. */
  docsUrl: string;
  /** Where a tool call's unexpected failure is logged. */
  logger: Logger;
}

/** A count of the calls waiting for their runs, bounded. */
export class WaitSlots {
  private taken = 0;

  /** @param max - how many calls may wait at once */
  constructor(private readonly max: number) {}

  /**
   * Take a slot.
   * @returns true when one was free (give it back with {@link release}); false when every slot is taken
   */
  take(): boolean {
    if (this.taken >= this.max) return false;
    this.taken += 1;
    return true;
  }

  /** Give a slot back. */
  release(): void {
    this.taken -= 1;
  }
}

/** Who calls, for one HTTP request of the endpoint. */
export interface McpCaller {
  identity: Identity;
  /** The HTTP request's id (`X-Request-ID`), which the runs it starts carry. */
  requestId: string;
  /** The client's `Mcp-Session-Id`, when it sends one: it scopes a call's idempotency key and run id. */
  session: string | undefined;
  /** The HTTP request (the origin of the links in results). */
  req: Request;
}
