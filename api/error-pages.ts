/**
 * The error documentation this runner serves about itself: one HTML page per `error_type`, at the path its problem
 * documents' `type` names (`{ERROR_DOCS_URL}/errors/<kebab-name>/`, spec §7.1), and an index of them all. The pages are
 * built once, from the error catalog (titles) and the catalog table of `docs/errors.md` (status, domain, meaning), so
 * the documentation served is the one of the running version.
 */
import { readFileSync } from 'node:fs';
import { ERROR_CATALOG, kebabErrorName } from '../shared/errors/index.js';

/** `docs/errors.md`, beside `api/` in the sources and copied beside `dist/api/` by the build. */
const ERRORS_DOC = new URL('../docs/errors.md', import.meta.url);

/** One row of the catalog table: `` | `ErrorType` | status | domain | meaning | ``. */
const CATALOG_ROW = /^\| `([A-Za-z0-9]+)` \| (.+?) \| (.+?) \| (.+) \|$/gm;

/** The served error documentation. */
export interface ErrorPages {
  /** The index (`/errors/`): every error class with its status, domain and meaning. */
  index: string;
  /** The page of each error class, by the kebab-case name its `type` URI ends with. */
  bySlug: ReadonlyMap<string, string>;
}

interface DocumentedError {
  errorType: string;
  slug: string;
  title: string;
  status: string;
  domain: string;
  /** The meaning cell, as HTML. */
  meaning: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * Markdown of a table cell as HTML: text escaped, code spans kept, links reduced to their text (they are
 * repo-relative).
 */
function inlineHtml(markdown: string): string {
  return markdown
    .split(/(`[^`]*`)/)
    .map((part) =>
      part.startsWith('`') && part.endsWith('`') && part.length > 1
        ? `<code>${escapeHtml(part.slice(1, -1))}</code>`
        : escapeHtml(part.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')),
    )
    .join('');
}

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n<body>\n${body}\n</body></html>\n`;
}

function documentedErrors(markdown: string): DocumentedError[] {
  const table = markdown.split('## Catalog')[1] ?? '';
  const catalog = ERROR_CATALOG as Record<string, { title: string }>;
  return [...table.matchAll(CATALOG_ROW)].flatMap(([, errorType = '', status = '', domain = '', meaning = '']) => {
    const entry = catalog[errorType];
    if (!entry) return [];
    return [
      { errorType, slug: kebabErrorName(errorType), title: entry.title, status, domain, meaning: inlineHtml(meaning) },
    ];
  });
}

function errorPage(error: DocumentedError): string {
  return page(
    `${error.errorType}: ${error.title}`,
    [
      `<h1>${escapeHtml(error.title)}</h1>`,
      `<p><code>error_type: ${escapeHtml(error.errorType)}</code> · HTTP status ${inlineHtml(error.status)} · error_domain ${inlineHtml(error.domain)}</p>`,
      `<p>${error.meaning}</p>`,
      '<p>The problem document names the request in <code>instance</code> and <code>request_id</code>; the server log has the full cause under that request id.</p>',
      '<p><a href="../">All errors of this runner</a></p>',
    ].join('\n'),
  );
}

function indexPage(errors: DocumentedError[]): string {
  const rows = errors.map(
    (error) =>
      `<tr><td><a href="./${error.slug}/"><code>${escapeHtml(error.errorType)}</code></a></td><td>${inlineHtml(error.status)}</td><td>${inlineHtml(error.domain)}</td><td>${error.meaning}</td></tr>`,
  );
  return page(
    'Errors of the MTHDS runner',
    [
      '<h1>Errors of the MTHDS runner</h1>',
      '<p>Every failure is an RFC 9457 problem document (<code>application/problem+json</code>) whose <code>type</code> is the page of its <code>error_type</code> below.</p>',
      '<table>',
      '<tr><th>error_type</th><th>status</th><th>domain</th><th>meaning</th></tr>',
      ...rows,
      '</table>',
    ].join('\n'),
  );
}

let built: ErrorPages | undefined;

/**
 * The pages built from the installation's `docs/errors.md`, on the first call (the first request for one), then kept:
 * the document does not change while the process runs.
 * @returns the index and the page of every error class its catalog table documents
 * @throws Error when `docs/errors.md` cannot be read (an installation without it)
 */
export function errorPages(): ErrorPages {
  if (!built) {
    const errors = documentedErrors(readFileSync(ERRORS_DOC, 'utf8'));
    built = { index: indexPage(errors), bySlug: new Map(errors.map((error) => [error.slug, errorPage(error)])) };
  }
  return built;
}
