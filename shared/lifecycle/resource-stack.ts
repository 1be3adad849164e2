/**
 * The one list of what a process must release on shutdown (after Graphile Worker's runner and the TC39
 * `AsyncDisposableStack`): each entry point pushes its resources as it opens them, and shutdown closes them in reverse
 * order, each once, an error in one never stopping the others.
 */

/** A resource's release, e.g. closing a server, a worker pool or a Redis connection. */
export type Release = () => Promise<void> | void;

/** A resource that failed to close, and why. */
export interface ReleaseFailure {
  name: string;
  error: unknown;
}

/** Resources to release on shutdown, closed last-opened first. */
export class ResourceStack {
  private readonly entries: { name: string; release: Release }[] = [];
  private closing: Promise<ReleaseFailure[]> | undefined;

  /**
   * Add a resource.
   * @param name - what it is, for logs (`http server`, `worker pool`, `queue backend`)
   * @param release - closes it
   */
  defer(name: string, release: Release): void {
    this.entries.push({ name, release });
  }

  /** Names of the resources not yet released (the one being released first), in release order. */
  pending(): string[] {
    return this.entries.map((entry) => entry.name).reverse();
  }

  /**
   * Release every resource, last added first; later calls return the same promise.
   * @returns the resources whose release threw or rejected (empty when all closed)
   */
  close(): Promise<ReleaseFailure[]> {
    this.closing ??= (async () => {
      const failures: ReleaseFailure[] = [];
      for (let entry = this.entries.at(-1); entry; entry = this.entries.at(-1)) {
        try {
          await entry.release();
        } catch (error) {
          failures.push({ name: entry.name, error });
        }
        this.entries.pop();
      }
      return failures;
    })();
    return this.closing;
  }

  /** `await using` support: same as {@link ResourceStack.close}. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}
