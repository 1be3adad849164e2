import { expect } from 'chai';
import { ValidateBundleError } from '../../../shared/errors/index.js';
import { loadRunLibrary } from '../../../shared/runtime/index.js';
import { GREETING_BUNDLE } from '../../helpers/greeting-bundle.js';

describe('loadRunLibrary: the libraries of recent runs', () => {
  it('should give the same library for the same sources, without loading them again', () => {
    const first = loadRunLibrary([{ content: GREETING_BUNDLE, source: 'greet.mthds' }]);
    const again = loadRunLibrary([{ content: GREETING_BUNDLE, source: 'greet.mthds' }]);
    expect(again).to.equal(first);
  });

  it('should load sources that differ in a name or a character anew', () => {
    const first = loadRunLibrary([{ content: GREETING_BUNDLE, source: 'greet.mthds' }]);
    expect(loadRunLibrary([{ content: GREETING_BUNDLE, source: 'other.mthds' }])).to.not.equal(first);
    expect(loadRunLibrary([{ content: `${GREETING_BUNDLE}\n`, source: 'greet.mthds' }])).to.not.equal(first);
  });

  it('should keep a source list asked again apart by what else the verdict depends on (its bundle files)', () => {
    const sources = [{ content: GREETING_BUNDLE, source: 'greet.mthds' }];
    const asText = loadRunLibrary(sources, undefined, null);
    const fromFiles = loadRunLibrary(sources, undefined, ['greet.mthds']);
    expect(fromFiles).to.not.equal(asText);
    expect(loadRunLibrary(sources, undefined, null)).to.equal(asText);
    expect(loadRunLibrary(sources, undefined, ['greet.mthds'])).to.equal(fromFiles);
  });

  it('should refuse invalid sources on every run with the same items', () => {
    const invalid = [{ content: 'domain = "x"\n[pipe.p]\ntype = "PipeLLM"\n', source: null }];
    const first = (() => {
      try {
        loadRunLibrary(invalid);
      } catch (error) {
        return error;
      }
    })();
    expect(first).to.be.instanceOf(ValidateBundleError);
    expect(() => loadRunLibrary(invalid))
      .to.throw(ValidateBundleError)
      .with.property('message', (first as ValidateBundleError).message);
  });
});
