/**
 * How `/v1/validate` scales with the number of pipes (`npm run bench`): the validate operation the diagnostics thread
 * runs for the route (static rules, the dry-run sweep, the default pipe's graph, the report's encoding), on bundles of
 * N pipes from `scalingBundle` (a long PipeSequence whose steps read earlier results, plus independent pipes), each
 * validate on templates no earlier one compiled (the cost of a new bundle). Prints the median milliseconds per
 * validate and its ratio to the 10-pipe time; linear scaling keeps the ratio near N / 10. Writes
 * `bench/validate-scaling.md`. Nothing here is asserted: timings are machine-dependent. `npm run bench` runs it with
 * `--max-semi-space-size=64`, the young generation of the diagnostics threads that run the route
 * (`api/offload/diagnostics-pool.ts`).
 */
import { writeFileSync } from 'node:fs';
import { type ValidateInput, validateOperation } from '../api/offload/validate-operation.js';
import { scalingBundle } from '../test/helpers/large-bundles.js';
import { quantile } from '../test/helpers/raw-http.js';

/** Bundle sizes, in pipes. */
const SIZES = [2, 10, 100, 200, 500, 1000, 2000];
/** Pipes of the bundle validated before timing, so the first sizes are not timed while the JIT warms up. */
const WARM_UP_PIPES = 200;
/** Timed validates per size (after one untimed warm-up); fewer for the largest bundles. */
const RUNS = Number(process.env['BENCH_VALIDATE_RUNS'] ?? 7);
const LARGE_RUNS = Math.max(1, Math.ceil(RUNS / 2));

function validateInput(pipes: number, run: number): ValidateInput {
  return {
    sources: [{ content: scalingBundle(pipes, `scaling_${pipes}_${run}`), source: null }],
    allowSignatures: false,
    views: [],
    mode: 'compat',
    defaultPipe: null,
  };
}

/** Each validate gets a bundle of its own domain, so none finds its templates compiled by an earlier one. */
async function medianMs(pipes: number): Promise<number> {
  const runs = pipes >= 1000 ? LARGE_RUNS : RUNS;
  const inputs = Array.from({ length: runs + 1 }, (_, run) => validateInput(pipes, run));
  const report = new TextDecoder().decode(await validateOperation(inputs[0]!));
  if (!report.startsWith('{"is_valid":true')) throw new Error(`The ${pipes}-pipe bundle is invalid: ${report}`);
  const times: number[] = [];
  for (const input of inputs.slice(1)) {
    const started = performance.now();
    await validateOperation(input);
    times.push(performance.now() - started);
  }
  return quantile(times, 0.5);
}

async function main(): Promise<void> {
  await medianMs(WARM_UP_PIPES);
  const medians = new Map<number, number>();
  for (const pipes of SIZES) medians.set(pipes, await medianMs(pipes));
  const anchor = medians.get(10)!;
  const table = [
    `# /v1/validate scaling (${new Date().toISOString().slice(0, 10)}, Node ${process.version}, median of ${RUNS} runs, ${LARGE_RUNS} from 1,000 pipes, new templates each run)`,
    '',
    '| pipes | ms per validate | ratio to 10 pipes |',
    '|---|---|---|',
    ...[...medians].map(([pipes, ms]) => `| ${pipes} | ${ms.toFixed(1)} | ${(ms / anchor).toFixed(1)} |`),
    '',
  ].join('\n');
  writeFileSync(new URL('./validate-scaling.md', import.meta.url), table);
  process.stdout.write(`${table}\n`);
}

await main();
