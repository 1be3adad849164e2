// @ts-check
/**
 * The production build (`npm run build`):
 * 1. compiles `api/`, `worker/` and `shared/` with `tsconfig.build.json` into `dist/` (type-checked; the thread and
 *    child-process entries — diagnostics, template rendering, PDF text, the embedded database, quarantine — run from
 *    this tree);
 * 2. copies beside the compiled modules the files they read at run time (every non-TypeScript file of those folders:
 *    the packaged `api.toml`, the inference defaults, the bundle schema), `package.json` (the version) and
 *    `docs/errors.md` (the served error pages);
 * 3. bundles the two process entries, `dist/api/server.js` and `dist/worker/main.js`, with esbuild over the compiled
 *    ones: the project's own modules in one file each plus shared chunks under `dist/chunks/` (modules imported only
 *    dynamically, such as the queue mode, stay in chunks of their own and load when first imported), together with the
 *    packages of {@link BUNDLED_PACKAGES} and everything they import; every other package stays in `node_modules`.
 *    Loading a few files instead of some 460 modules and a few thousand package files is most of a fast start
 *    (docs/architecture.md#startup). Every output sits one folder below `dist/`, and each module's `import.meta.url`
 *    is rewritten to the URL of its compiled twin in the tree, so the files it finds beside itself
 *    (`new URL('./api.toml', …)`) and the thread entries it names are found there. Names are kept (`keepNames`): error
 *    classes derive their `error_type` from their class name.
 *
 * 4. builds the method console (`console/`, docs/console.md): type-checks it with its own `console/tsconfig.json`, then
 *    bundles it with Vite into `dist/console/dist/`, where the compiled `/console` route finds it (two folders above
 *    its module, as `console/dist/` is from the sources).
 *
 * With `--console` it builds the console alone, into `console/dist/`, where the API running from sources
 * (`npm run dev`, the tests) serves it; nothing else is built.
 *
 * With `--if-stale` (the `prestart` scripts) it builds only when `dist/` is missing or older than a source, so
 * `npm start` stays the one command on a fresh clone and costs nothing more once built. Staleness is judged on
 * modification times, folders included, so added and deleted files count too.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist');
/** Written last by a successful build; its modification time is the moment that build started. */
const STAMP = join(OUT, '.build-stamp');
const SOURCE_DIRS = ['api', 'worker', 'shared'];
/** The console's sources: everything under `console/` but its build output. */
const CONSOLE_SOURCES = ['console/src', 'console/index.html', 'console/tsconfig.json'];
/** Files the running service reads beside its modules, copied to the same place under `dist/`. */
const RUNTIME_FILES = ['package.json', 'docs/errors.md'];
const SOURCE_FILES = [...RUNTIME_FILES, 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];

/**
 * The latest modification time under `path`, folders included.
 * @param {string} path
 * @returns {number}
 */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

/** @returns {boolean} whether `dist/` is missing or older than a source */
function stale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return [...SOURCE_DIRS, ...SOURCE_FILES, ...CONSOLE_SOURCES].some((path) => newest(join(ROOT, path)) > built);
}

/**
 * Copy every file of `directory` that is not TypeScript into the same place under `dist/`.
 * @param {string} directory
 */
function copyAssets(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) copyAssets(path);
    else if (!entry.name.endsWith('.ts')) {
      const target = join(OUT, relative(ROOT, path));
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}

/**
 * The packages bundled into the entries with what they import: those both entries load before they serve, pure
 * JavaScript that finds no file of its own at run time (by `__dirname`, a path or a worker script). Any other package
 * stays in `node_modules`: the queue stack (BullMQ reads its Lua scripts from its folder), the thread pool (piscina
 * starts its worker script by path), the logger (pino's transports are worker scripts), git (simple-git), and the
 * packages loaded on first use (provider SDKs, undici, the formatter, document engines, the S3 client, Bull Board, the
 * OpenTelemetry SDK: the bundled OpenTelemetry API and the SDK's own copy share one registry, a global symbol).
 * `test/e2e/production-build.test.ts` serves every route family from the build.
 */
const BUNDLED_PACKAGES = new Set([
  '@lezer/python',
  '@modelcontextprotocol/sdk',
  '@opentelemetry/api',
  'ajv',
  'ajv-draft-04',
  'ajv-formats',
  'canonicalize',
  'content-type',
  'express',
  'fastest-levenshtein',
  'ipaddr.js',
  'jose',
  'kysely',
  'kysely-pglite-dialect',
  'lru-cache',
  'markdown-it',
  'mime-types',
  'nunjucks',
  'p-limit',
  'pg',
  'prom-client',
  'proper-lockfile',
  'rate-limiter-flexible',
  'smol-toml',
  'toml-eslint-parser',
  'yauzl',
  'zod',
  'zod-openapi',
]);

/**
 * The package a bare import specifier names (`@scope/name/sub` → `@scope/name`, `name/sub` → `name`).
 * @param {string} specifier
 */
function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * An esbuild plugin bundling the packages of {@link BUNDLED_PACKAGES} and whatever they import; every other package
 * import of the project's modules stays external. Node's builtins stay external either way.
 * @type {import('esbuild').Plugin}
 */
const bundledPackages = {
  name: 'bundled-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, ({ path, importer }) => {
      const insideBundledPackage = importer.split(sep).includes('node_modules');
      if (insideBundledPackage || BUNDLED_PACKAGES.has(packageOf(path))) return undefined;
      return { path, external: true };
    });
  },
};

/**
 * Bundled CommonJS packages `require` Node's builtins; an ES module has no `require` of its own, so each output file
 * makes one.
 */
const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** The entries bundled, by their output path under `dist/` (without `.js`). */
const BUNDLED_ENTRIES = { 'api/server': 'api/server.ts', 'worker/main': 'worker/main.ts' };

/**
 * An esbuild plugin giving each project module the `import.meta.url` of its compiled twin under `dist/`, written
 * relative to the output file (every output is one folder below `dist/`).
 * @type {import('esbuild').Plugin}
 */
const compiledTwinUrls = {
  name: 'compiled-twin-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, ({ path }) => {
      const twin = relative(ROOT, path).replaceAll(sep, '/').replace(/\.ts$/, '.js');
      if (!SOURCE_DIRS.some((directory) => twin.startsWith(`${directory}/`))) return undefined;
      const text = readFileSync(path, 'utf8');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(`../${twin}`)}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

async function bundleEntries() {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: BUNDLED_ENTRIES,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    keepNames: true,
    banner: { js: REQUIRE_BANNER },
    legalComments: 'none',
    tsconfig: join(ROOT, 'tsconfig.build.json'),
    outdir: OUT,
    chunkNames: 'chunks/[name]-[hash]',
    allowOverwrite: true,
    plugins: [bundledPackages, compiledTwinUrls],
    metafile: true,
    logLevel: 'warning',
  });
  const misplaced = Object.keys(result.metafile.outputs).filter(
    (file) => relative(OUT, join(ROOT, file)).split(sep).length !== 2,
  );
  if (misplaced.length > 0) throw new Error(`bundle outputs must sit one folder below dist/: ${misplaced.join(', ')}`);
}

/**
 * The TypeScript compiler's entry, or exit telling how to get it (a dev dependency).
 * @returns {string}
 */
function typescriptCompiler() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write(
      'dist/ is missing or out of date and TypeScript (a dev dependency) is not installed: run `npm ci` (with dev dependencies) and try again, or run the sources with `npm run dev`.\n',
    );
    process.exit(1);
  }
}

/**
 * Type-check the console and bundle it with Vite (React plugin) into `outDir`: `index.html` and `assets/`, every
 * asset's name carrying its content hash, served under `/console/`. Nothing is loaded from elsewhere at run time.
 * @param {string} outDir
 */
async function buildConsole(outDir) {
  process.stderr.write('Building the console (tsc -p console, vite build)…\n');
  const checked = spawnSync(process.execPath, [typescriptCompiler(), '-p', join(ROOT, 'console', 'tsconfig.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (checked.status !== 0) process.exit(checked.status ?? 1);
  const { build: viteBuild } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await viteBuild({
    root: join(ROOT, 'console'),
    base: '/console/',
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, assetsDir: 'assets', sourcemap: false, chunkSizeWarningLimit: 4096 },
  });
  const assets = join(outDir, 'assets');
  const bytes = readdirSync(assets).reduce((sum, name) => sum + statSync(join(assets, name)).size, 0);
  process.stderr.write(`Console built: ${(bytes / 1024).toFixed(0)} KiB of assets in ${relative(ROOT, assets)}\n`);
}

async function build() {
  const started = new Date();
  const tsc = typescriptCompiler();
  rmSync(OUT, { recursive: true, force: true });
  process.stderr.write('Building dist/ (tsc -p tsconfig.build.json)…\n');
  const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  for (const directory of SOURCE_DIRS) copyAssets(join(ROOT, directory));
  for (const file of RUNTIME_FILES) cpSync(join(ROOT, file), join(OUT, file));
  process.stderr.write('Bundling the entries (esbuild)…\n');
  await bundleEntries();
  await buildConsole(join(OUT, 'console', 'dist'));
  writeFileSync(STAMP, '');
  utimesSync(STAMP, started, started);
}

if (process.argv.includes('--console')) await buildConsole(join(ROOT, 'console', 'dist'));
else if (!process.argv.includes('--if-stale') || stale()) await build();
