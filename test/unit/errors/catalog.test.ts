import { expect } from 'chai';
import * as errors from '../../../shared/errors/index.js';
import { ERROR_CATALOG, MthdsError } from '../../../shared/errors/index.js';

const errorClasses = Object.entries(errors).filter(
  ([, value]) => typeof value === 'function' && value.prototype instanceof MthdsError,
);

describe('ERROR_CATALOG', () => {
  it('should have an entry for every error class', () => {
    const missing = errorClasses.map(([name]) => name).filter((name) => !(name in ERROR_CATALOG));
    expect(missing).to.deep.equal([]);
  });

  it('should have an error class for every entry', () => {
    const classNames = new Set(errorClasses.map(([name]) => name));
    expect(Object.keys(ERROR_CATALOG).filter((name) => !classNames.has(name))).to.deep.equal([]);
  });

  it('should give API-authored errors a domain and a 4xx/5xx status', () => {
    for (const [name, entry] of Object.entries(ERROR_CATALOG)) {
      if (entry.origin !== 'api') continue;
      expect(entry, name).to.have.property('domain');
      expect(entry.status, name).to.be.within(400, 599);
    }
  });
});
