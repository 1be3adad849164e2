/**
 * Interleaved comparisons of the service with an anchor: each round measures the anchor, then the subject, so both
 * see the same machine state; a comparison reports the median ratio over the rounds and its spread.
 */
import autocannon from 'autocannon';

/** One measured pair: higher is better for both values (e.g. requests/s, or the inverse of a latency). */
export interface Pair {
  subject: number;
  anchor: number;
}

/**
 * What stops a target, measured in the same rounds as its comparison: the best ratio the scenario's own anchors allow
 * on this machine (e.g. an Express route can answer no faster than E, so no `/v1/start` reaches more than E/Q of Q).
 */
export interface Wall {
  /** What the figure is, in words a reader of `bench/results.md` can check against the code. */
  what: string;
  /** The figure of each round. */
  values: number[];
}

/** A finished comparison. */
export interface Comparison {
  name: string;
  /** What a value counts, e.g. `req/s`. */
  unit: string;
  /** The target for the ratio, e.g. `≥ 0.50`. */
  target: string;
  pairs: Pair[];
  /** The wall in the way of the target, where one was measured. */
  wall?: Wall;
}

/**
 * The median of a non-empty list.
 * @param values - numbers
 */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Run `rounds` rounds of (anchor, subject).
 * @param rounds - how many pairs
 * @param measure - measures one side; `side` says which
 */
export async function interleave(
  rounds: number,
  measure: (side: 'anchor' | 'subject') => Promise<number>,
): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const anchor = await measure('anchor');
    const subject = await measure('subject');
    pairs.push({ subject, anchor });
  }
  return pairs;
}

/**
 * A Markdown table row: medians of both sides, the median ratio subject/anchor with its min–max spread, the target.
 * @param comparison - a finished comparison
 */
export function comparisonRow(comparison: Comparison): string {
  const ratios = comparison.pairs.map(({ subject, anchor }) => subject / anchor);
  const figure = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2));
  const subject = median(comparison.pairs.map((pair) => pair.subject));
  const anchor = median(comparison.pairs.map((pair) => pair.anchor));
  return `| ${comparison.name} | ${figure(subject)} ${comparison.unit} | ${figure(anchor)} ${comparison.unit} | ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}) | ${comparison.target} |`;
}

/**
 * A Markdown row of the walls table: the comparison, its median ratio, what stops it and the wall's median figure
 * with its min–max spread.
 * @param comparison - a finished comparison with a wall
 */
export function wallRow(comparison: Comparison & { wall: Wall }): string {
  const { values, what } = comparison.wall;
  const ratio = median(comparison.pairs.map(({ subject, anchor }) => subject / anchor));
  return `| ${comparison.name} | ${ratio.toFixed(3)} | ${comparison.target} | ${what} | ${median(values).toFixed(3)} (${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)}) |`;
}

/**
 * Run `work` and measure how busy this process's event loop was meanwhile (Node's `eventLoopUtilization`).
 * @param work - the measured work
 * @returns its value, and the share of the wall-clock time the main thread spent running code (1 = never idle: the
 *   work is bound by that thread's CPU)
 */
export async function withLoopUtilization<T>(work: () => Promise<T>): Promise<{ value: T; utilization: number }> {
  const before = performance.eventLoopUtilization();
  const value = await work();
  return { value, utilization: performance.eventLoopUtilization(before).utilization };
}

/** One HTTP load: `connections` clients for `seconds`. */
export interface Load {
  url: string;
  method: 'GET' | 'POST';
  body?: unknown;
  /** Makes the body of the `n`th request (from 0) instead of sending `body` every time. */
  freshBody?: (n: number) => unknown;
  seconds: number;
  connections: number;
}

/**
 * Requests per second of one autocannon load (mean); every answer must be 2xx.
 * @param load - the load
 * @throws Error when an answer is not 2xx or a request fails
 */
export async function requestRate(load: Load): Promise<number> {
  let sent = 0;
  const fresh = load.freshBody;
  const result = await autocannon({
    url: load.url,
    method: load.method,
    connections: load.connections,
    duration: load.seconds,
    headers: { 'content-type': 'application/json' },
    ...(load.body === undefined ? {} : { body: JSON.stringify(load.body) }),
    ...(fresh
      ? { requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(fresh(sent++)) }) }] }
      : {}),
  });
  if (result.errors + result.non2xx > 0)
    throw new Error(`${load.method} ${load.url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  return result.requests.average;
}
