import { expect } from 'chai';
import { MethodRefNotSupported, MethodRefParseError } from '../../../shared/errors/index.js';
import { parseMethodRef } from '../../../shared/methods/index.js';

const HOSTS = ['github.com'];

function failure(ref: string): Error {
  try {
    parseMethodRef(ref, HOSTS);
  } catch (error) {
    return error as Error;
  }
  return expect.fail(`${ref} should not parse`);
}

describe('parseMethodRef (spec §2.2; docs/methods.md#grammar)', () => {
  it('should parse host, owner, repo, selector and tag', () => {
    expect(parseMethodRef('github.com/pipelex/methods/cv_analyzer@v0.1.0', HOSTS)).to.deep.equal({
      raw: 'github.com/pipelex/methods/cv_analyzer@v0.1.0',
      host: 'github.com',
      owner: 'pipelex',
      repo: 'methods',
      selector: 'cv_analyzer',
      tag: 'v0.1.0',
      address: 'github.com/pipelex/methods/cv_analyzer',
    });
  });

  it('should read a bare address as HEAD without a selector', () => {
    expect(parseMethodRef('  github.com/acme/tools  ', HOSTS)).to.include({
      tag: null,
      selector: null,
      address: 'github.com/acme/tools',
    });
  });

  it('should normalise the scheme, host case, trailing slash, .git suffix and tree/blob deep links', () => {
    expect(parseMethodRef('https://GitHub.com/acme/tools.git/', HOSTS)).to.include({
      address: 'github.com/acme/tools',
      host: 'github.com',
    });
    expect(parseMethodRef('github.com/acme/tools/tree/main/pkg@v1', HOSTS)).to.include({ selector: 'pkg', tag: 'v1' });
  });

  it('should keep a nested selector and a tag with slashes', () => {
    expect(parseMethodRef('github.com/acme/tools/a/b@release/1.0', HOSTS)).to.include({
      selector: 'a/b',
      tag: 'release/1.0',
    });
  });

  for (const ref of ['cv_analyzer', 'pipelex/methods', 'cv_analyzer@1.0.0']) {
    it(`should answer the registry form '${ref}' with MethodRefNotSupported`, () => {
      expect(failure(ref)).to.be.instanceOf(MethodRefNotSupported);
    });
  }

  const malformed: [string, string][] = [
    ['', 'Empty method reference'],
    ['gitlab.com/acme/tools', "only 'github.com/...' addresses are supported"],
    ['github.com/acme', 'needs at least'],
    ['github.com/acme/../etc', "invalid path segment '..'"],
    ['github.com/acme/tools@', "Invalid tag ''"],
    ['github.com/acme/tools@v1..2', 'not a valid git tag name'],
    ['github.com/acme/tools@v1.lock', 'not a valid git tag name'],
    ['github.com/acme/tools@-v1', 'must start with a letter or digit'],
    ['github.com/acme/tools@v 1', 'must start with a letter or digit'],
  ];
  for (const [ref, detail] of malformed) {
    it(`should refuse '${ref}' with MethodRefParseError`, () => {
      const error = failure(ref);
      expect(error).to.be.instanceOf(MethodRefParseError);
      expect(error.message).to.include(detail);
    });
  }
});
