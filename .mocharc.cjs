/**
 * Mocha configuration (`npm test`).
 *
 * Some suites read the reference material handed beside the repository (`../shared`: the corpus of real bundles, the
 * reference schema). A fresh clone with nothing beside it still passes: those suites are found by what they import or
 * read (the patterns below) and left out with a message naming them; CI, which has `../shared`, runs them all.
 */
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
const namedFiles = process.argv.slice(2).some((argument) => /\.test\.ts$/.test(argument));

module.exports = {
  'node-option': ['import=tsx'],
  spec: namedFiles ? [] : ['test/**/*.test.ts'],
  ignore,
  recursive: true,
  timeout: 20000,
  require: ['test/helpers/leak-check.ts', 'test/helpers/postgres.ts'],
  exit: false,
};
