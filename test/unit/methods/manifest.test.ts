import { expect } from 'chai';
import { readManifest } from '../../../shared/methods/manifest.js';

const HEADER = '[package]\naddress = "github.com/acme/text-tools"\nname = "cleaning"\n';

describe('readManifest', () => {
  it('should flatten nested [exports] tables into domain paths and their pipes', () => {
    const read = readManifest(
      `${HEADER}[exports.cleaning]\npipes = ["tidy", "normalize"]\n[exports.legal]\npipes = ["review"]\n[exports.legal.contracts]\npipes = ["extract_clauses"]\n`,
    );
    expect('manifest' in read).to.equal(true);
    if (!('manifest' in read)) return;
    expect([...read.manifest.exports!.entries()].map(([domain, pipes]) => [domain, [...pipes]])).to.deep.equal([
      ['cleaning', ['tidy', 'normalize']],
      ['legal', ['review']],
      ['legal.contracts', ['extract_clauses']],
    ]);
  });

  it('should give null exports without an [exports] table, and skip a malformed pipes list', () => {
    const bare = readManifest(HEADER);
    expect('manifest' in bare && bare.manifest.exports).to.equal(null);
    const malformed = readManifest(`${HEADER}[exports.cleaning]\npipes = "tidy"\n`);
    expect('manifest' in malformed && [...malformed.manifest.exports!.keys()]).to.deep.equal([]);
  });
});
