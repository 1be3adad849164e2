import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { ERROR_CATALOG } from '../../../shared/errors/index.js';

describe('docs/errors.md', () => {
  const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8').split('## Catalog')[1] ?? '';
  const documented = new Set([...docs.matchAll(/^\| `([A-Za-z0-9]+)` \|/gm)].map((match) => match[1] ?? ''));

  it('should list every error_type of the catalog', () => {
    expect(Object.keys(ERROR_CATALOG).filter((name) => !documented.has(name))).to.deep.equal([]);
  });

  it('should list no error_type the catalog lacks', () => {
    expect([...documented].filter((name) => !(name in ERROR_CATALOG))).to.deep.equal([]);
  });
});
