import { expect } from 'chai';
import { reservedDomain } from '../../../../../shared/mthds/rules/declarations/reserved-domain.js';
import { runRule } from '../harness.js';

describe('S2-reserved-domain', () => {
  describe('when the first segment is native, mthds or pipelex', () => {
    it('should report each', () => {
      const items = runRule(reservedDomain, ['domain = "native.custom"', 'domain = "pipelex"']);
      expect(items[0]).to.deep.equal({
        category: 'blueprint_validation',
        message:
          "Domain 'native.custom' starts with the reserved segment 'native' (reserved: native, mthds, pipelex); choose another domain name.",
        error_type: 'reserved_domain',
        source: 'bundle-1.mthds',
        domain_code: 'native.custom',
        field_path: 'domain',
        field_name: 'domain',
      });
      expect(items.map((item) => item.source)).to.deep.equal(['bundle-1.mthds', 'bundle-2.mthds']);
    });
  });

  describe('when a reserved word is only a prefix or a later segment', () => {
    it('should pass', () => {
      expect(runRule(reservedDomain, ['domain = "natives"', 'domain = "legal.native"'])).to.deep.equal([]);
    });
  });
});
