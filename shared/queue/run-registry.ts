/**
 * The run registry in Redis: one JSON record per run (state, timestamps, result or error report), kept
 * `RUN_RECORD_TTL_SECONDS`, plus an in-flight marker per run id that makes a duplicate `/v1/start` a 409 until the run
 * completes or fails (spec §3 run id rules).
 */
import type { Redis } from 'ioredis';
import { QueueUnavailableError, type ErrorReport } from '../errors/index.js';
import type { RunResult, RunState } from '../runtime/index.js';
import type { QueueKeys } from './queue-keys.js';

/** A run as the registry keeps it. Times are ISO-8601 UTC. */
export interface RunRecord {
  pipeline_run_id: string;
  workflow_id: string;
  state: RunState;
  pipe_code: string | null;
  request_id: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  result?: RunResult;
  error?: ErrorReport;
  /** True once a retake of the run started in quarantine (its worker process died; docs/run-failures.md). */
  quarantined?: boolean;
}

async function reachable<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new QueueUnavailableError(`The run registry (Redis) is unreachable: ${(error as Error).message}. Retry later.`, { cause: error, retryable: true });
  }
}

/** Registry of runs of one deployment. */
export class RunRegistry {
  constructor(
    private readonly redis: Redis,
    private readonly keys: QueueKeys,
    /** Record lifetime in seconds. */
    private readonly ttlSeconds: number,
  ) {}

  /**
   * Mark a run id in flight, atomically.
   * @returns false when the id is already in flight
   * @throws QueueUnavailableError (503) when Redis is down
   */
  claim(runId: string, workflowId: string): Promise<boolean> {
    return reachable(async () => (await this.redis.set(this.keys.inFlight(runId), workflowId, 'EX', this.ttlSeconds, 'NX')) === 'OK');
  }

  /** Free a run id (completed, failed, or never enqueued). */
  release(runId: string): Promise<void> {
    return reachable(async () => {
      await this.redis.del(this.keys.inFlight(runId));
    });
  }

  /** Drop a record (a run that was never enqueued). */
  forget(runId: string): Promise<void> {
    return reachable(async () => {
      await this.redis.del(this.keys.run(runId));
    });
  }

  /** Store a record (replacing any previous one) and reset its TTL. */
  save(record: RunRecord): Promise<void> {
    return reachable(async () => {
      await this.redis.set(this.keys.run(record.pipeline_run_id), JSON.stringify(record), 'EX', this.ttlSeconds);
    });
  }

  /**
   * Read a record.
   * @returns the record, or undefined for an unknown (or expired) run
   */
  get(runId: string): Promise<RunRecord | undefined> {
    return reachable(async () => {
      const text = await this.redis.get(this.keys.run(runId));
      return text === null ? undefined : (JSON.parse(text) as RunRecord);
    });
  }

  /**
   * Update a record with a change, keeping the rest.
   * @returns the updated record, or undefined when the run is unknown
   */
  async update(runId: string, change: Partial<RunRecord>): Promise<RunRecord | undefined> {
    const record = await this.get(runId);
    if (!record) return undefined;
    const updated = { ...record, ...change };
    await this.save(updated);
    return updated;
  }
}
