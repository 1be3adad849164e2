import { expect } from 'chai';
import { domainCode } from '../../../../../shared/mthds/rules/declarations/domain-code.js';
import { runRule } from '../harness.js';

describe('S2-domain-code', () => {
  describe('when the domain is not snake_case segments', () => {
    it('should report it', () => {
      expect(runRule(domainCode, 'domain = "Legal..Contracts"')).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Domain 'Legal..Contracts' is not a valid domain code: use snake_case segments joined by dots (e.g. 'legal' or 'legal.contracts').",
          error_type: 'invalid_domain_code',
          source: 'bundle-1.mthds',
          domain_code: 'Legal..Contracts',
          field_path: 'domain',
          field_name: 'domain',
        },
      ]);
    });
  });

  describe('when the domain is valid', () => {
    it('should pass', () => {
      expect(runRule(domainCode, ['domain = "legal.contracts"', 'domain = "due_diligence_2"'])).to.deep.equal([]);
    });
  });
});
