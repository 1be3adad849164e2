/**
 * Every link a reader can follow resolves: the relative links of the repository's Markdown pages, and the `docs/…`
 * references of code comments, each to a file of the repository and, with a `#fragment`, to a heading of that file
 * (slugged as GitHub renders it). No comment cites a design note that is not in the repository.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const markdown = new MarkdownIt({ html: true });

/** The repository's tracked files (and new ones not yet committed), relative to its root. */
function repositoryFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out.split('\n').filter((file) => file !== '' && existsSync(join(ROOT, file)));
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors of a Markdown file: its headings' GitHub slugs, and the ids of its HTML anchors. */
function anchorsOf(file: string): Set<string> {
  const cached = anchorCache.get(file);
  if (cached !== undefined) return cached;
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const tokens = markdown.parse(readFileSync(join(ROOT, file), 'utf8'), {});
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open') {
      const text = (tokens[index + 1]?.children ?? [])
        .filter((child) => child.type === 'text' || child.type === 'code_inline')
        .map((child) => child.content)
        .join('');
      anchors.add(slugger.slug(text));
    }
    for (const match of token.content.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1] as string);
  });
  anchorCache.set(file, anchors);
  return anchors;
}

/** Why a link from `from` to `target` does not resolve, or `undefined` when it does. */
function brokenLink(from: string, target: string): string | undefined {
  const [path = '', fragment] = target.split('#', 2);
  const file = path === '' ? from : normalize(join(dirname(from), decodeURIComponent(path)));
  if (relative(ROOT, join(ROOT, file)).startsWith('..')) return `${target}: leaves the repository`;
  if (!existsSync(join(ROOT, file))) return `${target}: no file ${file}`;
  if (fragment === undefined || fragment === '' || !file.endsWith('.md')) return undefined;
  return anchorsOf(file).has(fragment) ? undefined : `${target}: no heading #${fragment} in ${file}`;
}

/** The relative link targets of a Markdown page (external links and mail addresses left out). */
function markdownLinks(file: string): string[] {
  const links: string[] = [];
  const visit = (tokens: ReturnType<typeof markdown.parse>): void => {
    for (const token of tokens) {
      if (token.type === 'link_open' || token.type === 'image') {
        const href = String(token.attrGet(token.type === 'image' ? 'src' : 'href') ?? '');
        if (!/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('//')) links.push(href);
      }
      if (token.children) visit(token.children);
    }
  };
  visit(markdown.parse(readFileSync(join(ROOT, file), 'utf8'), {}));
  return links;
}

const DESIGN_NOTES =
  /\b(LANGUAGE-DELTA|LANGUAGE|API-CONTRACT|RUNTIME|STYLE|CLIENTS|DEPENDENCIES|HOSTED-SURFACE|ARCHITECTURE)(\.md\b| §)/;
const CODE_REFERENCE =
  /(?<![\w/.-])((?:docs\/[\w./-]*?|CONTRIBUTING|README|bench\/README|deploy\/README)\.md)(#[\w-]+)?/g;
const CODE_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const CODE_FOLDERS = /^(api|shared|worker|test|bench|scripts|console|deploy)\//;

describe('Documentation links', () => {
  const files = repositoryFiles();
  const pages = files.filter((file) => file.endsWith('.md') && !file.startsWith('node_modules/'));
  const sources = files.filter((file) => CODE_FILE.test(file) && CODE_FOLDERS.test(file));

  it('should resolve every relative link of every Markdown page, fragment included', () => {
    const broken = pages.flatMap((page) =>
      markdownLinks(page).flatMap((link) => {
        const reason = brokenLink(page, link);
        return reason === undefined ? [] : [`${page}: ${reason}`];
      }),
    );
    expect(pages.length).to.be.greaterThan(20);
    expect(broken).to.deep.equal([]);
  });

  it("should resolve every docs/ reference of the code's comments to a page and a heading", () => {
    let references = 0;
    const broken = sources.flatMap((source) =>
      [...readFileSync(join(ROOT, source), 'utf8').matchAll(CODE_REFERENCE)].flatMap((match) => {
        references += 1;
        const reason = brokenLink('', `${match[1]}${match[2] ?? ''}`);
        return reason === undefined ? [] : [`${source}: ${reason}`];
      }),
    );
    expect(references).to.be.greaterThan(100);
    expect(broken).to.deep.equal([]);
  });

  it('should cite no design note that is not in the repository', () => {
    const citing = [...sources, ...pages].filter((file) => DESIGN_NOTES.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(citing).to.deep.equal([]);
  });

  it('should find a broken fragment and a missing page (the check can fail)', () => {
    expect(brokenLink('docs/api.md', 'errors.md#no-such-heading-anywhere')).to.match(/no heading/);
    expect(brokenLink('docs/api.md', 'no-such-page.md')).to.match(/no file/);
    expect(brokenLink('docs/api.md', '../../outside.md')).to.match(/leaves the repository/);
    expect(brokenLink('docs/api.md', 'errors.md')).to.equal(undefined);
  });
});
