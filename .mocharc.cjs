/**
 * Mocha configuration (`npm test`).
 *
 * Some suites read the reference material handed beside the repository (`../shared`: the corpus of real bundles, the
 * reference schema). A fresh clone with nothing beside it still passes: those suites are found by what they import or
 * read (the patterns below) and left out with a message naming them; CI, which has `../shared`, runs them all.
 *
 * Suites that spawn the service run its compiled build (`dist/`, `test/helpers/processes.ts`): before a run that
 * holds one, `scripts/build.mjs --if-stale` refreshes it (a no-op when it is up to date), here, before any test's
 * clock starts.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const SHARED_MATERIAL = join(__dirname, '..', 'shared', 'corpus');
const NEEDS_SHARED_MATERIAL =
  /helpers\/(corpus|method-repos|codegen-libraries|apply-fix-ops|reference-openapi|mthds-js)\.js|shared\/(corpus|reference|clients)\//;

function specFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return specFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const ignore = [];
if (!existsSync(SHARED_MATERIAL)) {
  const root = join(__dirname, 'test');
  for (const file of specFiles(root)) {
    if (NEEDS_SHARED_MATERIAL.test(readFileSync(file, 'utf8'))) ignore.push(file.slice(__dirname.length + 1));
  }
  process.stderr.write(
    `\n  ../shared (the reference corpus and schema) is not beside this repository: skipping the ${ignore.length} suites that read it:\n` +
      ignore.map((file) => `    - ${file}`).join('\n') +
      '\n  They run wherever ../shared is present (CI always has it).\n\n',
  );
}

/**
 * Test files named on the command line (`npx mocha test/unit/x.test.ts`) run alone; mocha would otherwise add them to
 * the configured spec and run the whole suite.
 */
const named = process.argv.slice(2).filter((argument) => /\.test\.ts$/.test(argument));
const namedFiles = named.length > 0;

/** What a suite that spawns the service imports (`test/helpers/processes.ts`). */
const SPAWNS_SERVICE = /\b(spawnApi|spawnService|runUntilExit)\b/;
const selected = namedFiles ? named : specFiles(join(__dirname, 'test'));
if (
  selected.some(
    (file) => !ignore.some((left) => file.endsWith(left)) && SPAWNS_SERVICE.test(readFileSync(file, 'utf8')),
  )
) {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: __dirname, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('scripts/build.mjs failed: the suites that spawn the service need dist/');
}

module.exports = {
  'node-option': ['import=tsx'],
  spec: namedFiles ? [] : ['test/**/*.test.ts'],
  ignore,
  recursive: true,
  timeout: 20000,
  require: ['test/helpers/leak-check.ts', 'test/helpers/postgres.ts'],
  exit: false,
};
