/**
 * Where a `/v1/execute` request's time goes (`npm run bench`; issue 13): the production start (`node
 * dist/api/server.js`, direct mode, mock inference, its storage in a temporary directory) is spawned with V8's CPU
 * profiler, warmed, then loaded with hello_greeting for `BENCH_PROFILE_SECONDS` (default 5) by autocannon from this
 * process with `BENCH_CONNECTIONS` (default 10) connections. Its main thread's profile is summed two ways and written
 * to `bench/execute-profile.md`: its busy time by where the running code lives (Node's HTTP and sockets, the file
 * system, each package, the service's own modules, the garbage collector), and the service's own functions by the
 * share of the busy time spent in them and what they call.
 *
 * Needs the corpus beside the repository (hello_greeting); no Redis.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../test/helpers/processes.js';
import { requestRate } from './comparison.js';
import { ensureProductionBuild, ROOT } from './production-build.js';
import { postJson } from './service-client.js';

const SECONDS = Number(process.env['BENCH_PROFILE_SECONDS'] ?? 5);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);
/** Rows of the functions table. */
const TOP_FUNCTIONS = 30;
/** Smallest share of the busy time a place gets a row of its own for. */
const MIN_PLACE_SHARE = 0.005;

const SAMPLES = new URL('../../shared/corpus/pipelex-api-samples/', import.meta.url);
const HELLO = {
  mthds_contents: [readFileSync(new URL('hello_greeting.mthds', SAMPLES), 'utf8')],
  inputs: { name: 'Ada' },
};

/** The parts of a `.cpuprofile` (Chrome DevTools protocol `Profiler.Profile`) this summary reads. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** Spawn the production start with the profiler on; resolves once `/health` answers. */
async function startProfiled(work: string): Promise<{ base: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${join(work, 'profile')}`, 'dist/api/server.js'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        INFERENCE_PROFILE: 'mock',
        STORAGE_DIR: join(work, 'storage'),
        METHOD_CACHE_DIR: join(work, 'methods'),
        DATABASE_URL: '',
        DATABASE_EMBEDDED_DIR: join(work, 'database'),
      },
      stdio: 'ignore',
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with status ${child.exitCode}`);
    if (
      await fetch(`${base}/health`).then(
        (answer) => answer.ok,
        () => false,
      )
    )
      return { base, child };
    await delay(10);
  }
}

/** Native frames (no URL) that are the kernel work of sockets or files, by name. */
const SOCKET_NATIVES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'shutdown']);
const FILE_NATIVES = new Set(['openFileHandle', 'open', 'rename', 'close', 'fstat', 'stat', 'lstat', 'read', 'write']);

/** The package of a path inside `node_modules` (or of a bundled module's source path), if it is one. */
function packageIn(path: string): string | undefined {
  return /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1];
}

/**
 * Where a frame's code lives: a Node module family, a package (loaded from `node_modules` or bundled into the build),
 * the service's own code or V8's own work.
 */
function placeOf(
  { url, functionName, lineNumber }: CpuProfile['nodes'][number]['callFrame'],
  sources: BundleSources,
): string {
  if (url === '') {
    if (SOCKET_NATIVES.has(functionName)) return 'Node HTTP and sockets';
    if (FILE_NATIVES.has(functionName)) return 'Node file system';
    return functionName.startsWith('(') ? functionName : 'V8 and Node natives';
  }
  if (url.startsWith('node:')) {
    if (/^node:(_http|net|internal\/(streams|stream_base|http))/.test(url)) return 'Node HTTP and sockets';
    if (/^node:(fs|internal\/fs)/.test(url)) return 'Node file system';
    return `Node ${url.replace(/^node:(internal\/)?/, '')}`;
  }
  const packageName = packageIn(url) ?? packageIn(sources.sourceOf(url, lineNumber));
  return packageName ? `package ${packageName}` : 'the service';
}

/**
 * The source module of a line of the production bundle: esbuild opens each bundled module with a comment naming its
 * path (`// shared/…/x.ts`, `// node_modules/express/lib/express.js`), so the last one above the line names it.
 */
class BundleSources {
  private readonly starts = new Map<string, Array<{ line: number; source: string }>>();

  sourceOf(url: string, line: number): string {
    let starts = this.starts.get(url);
    if (!starts) {
      const lines = url.startsWith('file:') ? readFileSync(new URL(url), 'utf8').split('\n') : [];
      starts = lines.flatMap((text, index) =>
        /^\/\/ [\w@./-]+\.(ts|c?js|mjs|json)$/.test(text) ? [{ line: index, source: text.slice(3) }] : [],
      );
      this.starts.set(url, starts);
    }
    return starts.findLast((start) => start.line <= line)?.source ?? url.replace(/^.*\/dist\//, 'dist/');
  }
}

/** Self time by place and inclusive time by service function, in µs, with the busy (non-idle) total. */
function summarise(profile: CpuProfile): { places: Map<string, number>; functions: Map<string, number>; busy: number } {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const sources = new BundleSources();
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, time] of self) {
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    busy += time;
    const place = placeOf(frame, sources);
    places.set(place, (places.get(place) ?? 0) + time);
    const counted = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const caller = nodes.get(at)!.callFrame;
      if (placeOf(caller, sources) !== 'the service' || caller.functionName === '') continue;
      const name = `${caller.functionName} (${sources.sourceOf(caller.url, caller.lineNumber)})`;
      if (counted.has(name)) continue;
      counted.add(name);
      functions.set(name, (functions.get(name) ?? 0) + time);
    }
  }
  return { places, functions, busy };
}

async function main(): Promise<void> {
  ensureProductionBuild();
  const work = mkdtempSync(join(tmpdir(), 'bench-execute-profile-'));
  mkdirSync(join(work, 'profile'));
  try {
    const { base, child } = await startProfiled(work);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await postJson(`${base}/v1/execute`, HELLO);
    const load = { url: `${base}/v1/execute`, method: 'POST' as const, body: HELLO, connections: CONNECTIONS };
    await requestRate({ ...load, seconds: 1 });
    const rate = await requestRate({ ...load, seconds: SECONDS });
    child.kill('SIGINT');
    await exited;
    const file = readdirSync(join(work, 'profile')).find((name) => name.endsWith('.0.001.cpuprofile'));
    if (!file) throw new Error('the service wrote no main-thread profile');
    const profile = JSON.parse(readFileSync(join(work, 'profile', file), 'utf8')) as CpuProfile;
    const { places, functions, busy } = summarise(profile);
    const share = (time: number) => `${((100 * time) / busy).toFixed(1)} %`;
    const rows = (entries: Map<string, number>, count: number) =>
      [...entries]
        .sort((a, b) => b[1] - a[1])
        .slice(0, count)
        .map(([name, time]) => `| ${name} | ${share(time)} |`);
    const placesShown = [...places].filter(([, time]) => time / busy >= MIN_PLACE_SHARE);
    const otherPlaces = busy - placesShown.reduce((sum, [, time]) => sum + time, 0);
    const report = [
      `# Where a /v1/execute request's time goes (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
      '',
      `\`node --cpu-prof dist/api/server.js\` (direct mode, mock inference), loaded with hello_greeting for ${SECONDS} s`,
      `with ${CONNECTIONS} connections after a 1 s warm-up: ${rate.toFixed(0)} req/s under the profiler. The main`,
      `thread's profile covers its whole life (start, warm-up and load): busy ${(busy / 1000).toFixed(0)} ms.`,
      '',
      '## Busy time by where the running code lives (self time)',
      '',
      '| place | share of busy time |',
      '|---|---|',
      ...rows(new Map(placesShown), placesShown.length),
      `| ${places.size - placesShown.length} other places, each under ${100 * MIN_PLACE_SHARE} % | ${share(otherPlaces)} |`,
      '',
      `## The service's own functions, by source module (time in them and what they call; top ${TOP_FUNCTIONS})`,
      '',
      '| function | share of busy time |',
      '|---|---|',
      ...rows(functions, TOP_FUNCTIONS),
      '',
    ].join('\n');
    writeFileSync(new URL('./execute-profile.md', import.meta.url), report);
    process.stdout.write(report);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
