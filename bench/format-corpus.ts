/**
 * Formatter fidelity on the corpus (`npm run bench:format`): every parseable `.mthds` under ../shared/corpus is
 * formatted with the default options; prints, per bundle and in total, whether the output is unchanged, idempotent
 * (format(format(x)) = format(x)), parses to the same data, and how many authored lines it keeps (longest common
 * subsequence of lines). The figures are recorded in docs/formatting.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'smol-toml';
import { formatMthds } from '../shared/tooling/index.js';

const CORPUS = new URL('../../shared/corpus/', import.meta.url);

function commonLines(left: string[], right: string[]): number {
  let previous = new Array<number>(right.length + 1).fill(0);
  for (const line of left) {
    const current = new Array<number>(right.length + 1).fill(0);
    right.forEach((other, column) => {
      current[column + 1] = line === other ? previous[column]! + 1 : Math.max(previous[column + 1]!, current[column]!);
    });
    previous = current;
  }
  return previous[right.length]!;
}

const totals = { bundles: 0, unchanged: 0, idempotent: 0, sameData: 0, keptLines: 0, lines: 0 };
const paths = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.mthds'))
  .sort();
console.log('| bundle | unchanged | idempotent | same data | authored lines kept |\n|---|---|---|---|---|');
for (const path of paths) {
  const content = readFileSync(new URL(path, CORPUS), 'utf8');
  const once = await formatMthds(content);
  if (once.diagnostics.length > 0) continue;
  const twice = await formatMthds(once.formatted);
  const lines = content.split('\n');
  const kept = commonLines(lines, once.formatted.split('\n'));
  const row = {
    unchanged: !once.changed,
    idempotent: !twice.changed,
    sameData: isDeepStrictEqual(parse(once.formatted), parse(content)),
  };
  totals.bundles += 1;
  totals.unchanged += Number(row.unchanged);
  totals.idempotent += Number(row.idempotent);
  totals.sameData += Number(row.sameData);
  totals.keptLines += kept;
  totals.lines += lines.length;
  console.log(`| ${path} | ${row.unchanged} | ${row.idempotent} | ${row.sameData} | ${kept}/${lines.length} |`);
}
const share = ((100 * totals.keptLines) / totals.lines).toFixed(1);
console.log(
  `| **total (${totals.bundles})** | ${totals.unchanged} | ${totals.idempotent} | ${totals.sameData} | ${totals.keptLines}/${totals.lines} (${share} %) |`,
);
