/**
 * Object keys (docs/storage.md#path-safety): every scope and object name that could leave its prefix — traversal,
 * absolute, separators, percent-encoded and Unicode forms that normalise to one of those — is refused, never rewritten.
 */
import { expect } from 'chai';
import { StoragePathError } from '../../../shared/errors/index.js';
import { checkedKey, objectPath, parseObjectPath, runObjectName } from '../../../shared/storage/index.js';
import { EVIL_NAMES, EVIL_SCOPES } from '../../helpers/storage-paths.js';

describe('storage object keys', () => {
  it('builds and parses <scope>/<leaf>/<name> for 1 to 3 scope segments', () => {
    for (const scope of ['alice', 'acme/prod', 'acme/prod/eu-1']) {
      const key = { scope, leaf: 'results' as const, name: 'run-1.json' };
      expect(objectPath(key)).to.equal(`${scope}/results/run-1.json`);
      expect(parseObjectPath(objectPath(key))).to.deep.equal(key);
    }
  });

  for (const scope of EVIL_SCOPES) {
    it(`refuses the scope ${JSON.stringify(scope)}`, () => {
      expect(() => objectPath({ scope, leaf: 'assets', name: 'a.png' })).to.throw(StoragePathError);
    });
  }

  for (const name of EVIL_NAMES) {
    it(`refuses the object name ${JSON.stringify(name)}`, () => {
      expect(() => checkedKey({ scope: 'acme', leaf: 'assets', name })).to.throw(StoragePathError);
    });
  }

  it('refuses a leaf that is not one of the four', () => {
    expect(() => objectPath({ scope: 'acme', leaf: 'secrets' as 'assets', name: 'a' })).to.throw(StoragePathError);
    expect(() => parseObjectPath('acme/../a.json')).to.throw(StoragePathError);
    expect(() => parseObjectPath('acme/prod/x/y/results/a.json')).to.throw(StoragePathError);
  });

  it('refuses a path with traversal, encoded or Unicode segments', () => {
    for (const path of [
      '../results/a.json',
      'acme/results/../a.json',
      'acme/results/%2e%2e',
      '/acme/results/a.json',
      'acme//results/a.json',
      'acme/results/\uff0e\uff0e',
    ])
      expect(() => parseObjectPath(path), path).to.throw(StoragePathError);
  });

  it('names a run object by its id, or by the SHA-256 of an id that is no safe name', () => {
    expect(runObjectName('run-1', 'json')).to.equal('run-1.json');
    expect(runObjectName('../../etc/passwd', 'json')).to.match(/^[0-9a-f]{64}\.json$/);
    expect(runObjectName('a.b', 'json')).to.match(/^[0-9a-f]{64}\.json$/);
    expect(runObjectName('../../etc/passwd', 'json')).to.not.equal(runObjectName('..%2F..%2Fetc%2Fpasswd', 'json'));
  });
});
