/**
 * The two tables docs/conformance.md shows, rendered from the suite's data, and where the doc holds them: between
 * `<!-- generated:NAME -->` and `<!-- /generated:NAME -->`. The suite compares the doc with these renderings, so the
 * doc cannot drift from what the suite enforces; with `UPDATE_CONFORMANCE_DOC=1` it writes them into the doc first.
 */
import type { DocumentedDifference } from './reference-differences.js';
import type { MatrixCell, SdkMatrix } from './sdk-matrix.js';

const MODES = ['direct', 'queue'] as const;

function cellText(cell: MatrixCell): string {
  if (cell.outcome === 'pass') return 'pass';
  if (cell.outcome === 'unsupported') return `expected-unsupported (\`${cell.reason}\`)`;
  return `pending: ${cell.work} (\`${cell.reason}\`)`;
}

function escaped(text: string): string {
  return text.replace(/\|/g, '\\|');
}

/**
 * The matrix section: one row per case, the counts per mode, and the reasons.
 * @param matrix - the matrix data
 */
export function renderMatrix(matrix: SdkMatrix): string {
  const rows = matrix.cases.map(
    (entry) =>
      `| \`${entry.id}\` | \`${entry.surface}\` | ${escaped(entry.call)} | ${cellText(entry.direct)} | ${cellText(entry.queue)} |`,
  );
  const counts = MODES.map((mode) => {
    const labels = matrix.cases.map(({ [mode]: cell }) =>
      cell.outcome === 'pass'
        ? 'pass'
        : cell.outcome === 'unsupported'
          ? 'expected-unsupported'
          : `pending: ${cell.work}`,
    );
    const tally = [...new Set(['pass', 'expected-unsupported', ...labels])]
      .map((label) => [label, labels.filter((other) => other === label).length] as const)
      .filter(([, count]) => count > 0);
    return `- ${mode}: ${tally.map(([label, count]) => `${count} ${label}`).join(', ')}`;
  });
  const reasons = Object.entries(matrix.reasons).map(([id, text]) => `- \`${id}\`: ${text}`);
  return [
    `Against ${matrix.sdk}, ${matrix.cases.length} calls in each mode:`,
    '',
    '| Case | Method or command | Call | direct | queue |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...counts,
    '',
    'Why a cell does not say pass:',
    '',
    ...reasons,
  ].join('\n');
}

/**
 * The differences section: one row per documented difference.
 * @param differences - the documented list
 */
export function renderDifferences(differences: DocumentedDifference[]): string {
  return [
    '| Id | Route | Status | Requests | Difference | Why |',
    '|---|---|---|---|---|---|',
    ...differences.map(
      (entry) =>
        `| \`${entry.id}\` | \`${entry.route}\` | ${entry.status ?? 'any'} | ${entry.requestHas ? `body with \`${entry.requestHas}\`` : 'any'} | ${escaped(entry.what)} | ${escaped(entry.reason)} |`,
    ),
  ].join('\n');
}

/**
 * The text of the doc between the markers of a generated section, trimmed.
 * @param doc - the doc's text
 * @param name - the section name
 * @returns the text, or null when the doc has no such section
 */
export function generatedSection(doc: string, name: string): string | null {
  const start = doc.indexOf(`<!-- generated:${name} -->`);
  const end = doc.indexOf(`<!-- /generated:${name} -->`);
  if (start < 0 || end < start) return null;
  return doc.slice(start + `<!-- generated:${name} -->`.length, end).trim();
}

/**
 * The doc with the text of a generated section replaced.
 * @param doc - the doc's text
 * @param name - the section name
 * @param text - the section's new text
 * @throws Error when the doc has no such section
 */
export function withGeneratedSection(doc: string, name: string, text: string): string {
  const open = `<!-- generated:${name} -->`;
  const close = `<!-- /generated:${name} -->`;
  const start = doc.indexOf(open);
  const end = doc.indexOf(close);
  if (start < 0 || end < start) throw new Error(`the doc has no generated section '${name}'`);
  return `${doc.slice(0, start + open.length)}\n${text}\n${doc.slice(end)}`;
}
