/**
 * Readiness of the API process (`GET /ready`): alive is not enough — the process is ready once its warm-ups are done
 * (the diagnostics threads started, their formatter loaded) and its live dependencies answer (Redis, in queue mode).
 * `GET /health` stays pure liveness (spec §4.1).
 */

/** The state of one check, as `GET /ready` reports it. */
export type CheckState = 'ok' | 'pending' | 'failed';

/** The verdict of {@link Readiness.check}: whether every check passed, and each check's state. */
export interface ReadinessVerdict {
  ready: boolean;
  checks: Record<string, CheckState>;
}

/** How long a live probe may take before it counts as failed, in ms. */
const PROBE_TIMEOUT_MS = 1000;

/** The checks a process must pass before it takes traffic. */
export class Readiness {
  private readonly warmUps = new Map<string, CheckState>();
  private readonly probes = new Map<string, (timeoutMs: number) => Promise<boolean>>();

  /**
   * Count a warm-up: its check is pending until `task` resolves (ok), or failed for good if it rejects.
   * @param name - the check's name in the verdict (e.g. `diagnostics_threads`)
   * @param task - the warm-up, already started
   */
  track(name: string, task: Promise<unknown>): void {
    this.warmUps.set(name, 'pending');
    task.then(
      () => this.warmUps.set(name, 'ok'),
      () => this.warmUps.set(name, 'failed'),
    );
  }

  /**
   * Add a live probe, run on every check.
   * @param name - the check's name in the verdict (e.g. `redis`)
   * @param probe - answers whether the dependency is usable, within the timeout it is given
   */
  probe(name: string, probe: (timeoutMs: number) => Promise<boolean>): void {
    this.probes.set(name, probe);
  }

  /**
   * Evaluate every check.
   * @returns ready when each warm-up is done and each probe answered true in time
   */
  async check(): Promise<ReadinessVerdict> {
    const checks: Record<string, CheckState> = Object.fromEntries(this.warmUps);
    await Promise.all(
      [...this.probes].map(async ([name, probe]) => {
        checks[name] = (await probe(PROBE_TIMEOUT_MS).catch(() => false)) ? 'ok' : 'failed';
      }),
    );
    return { ready: Object.values(checks).every((state) => state === 'ok'), checks };
  }
}
