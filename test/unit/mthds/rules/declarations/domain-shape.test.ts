import { expect } from 'chai';
import { domainShape } from '../../../../../shared/mthds/rules/declarations/domain-shape.js';
import { runRule } from '../harness.js';

describe('S2-domain-shape', () => {
  describe('when the domain is deeper than 3 segments or a segment longer than 4 words', () => {
    it('should warn', () => {
      expect(
        runRule(domainShape, ['domain = "a.b.c.d"', 'domain = "one_two_three_four_five"']).map((item) => item.message),
      ).to.deep.equal([
        "Domain 'a.b.c.d' has 4 segments; keep domain codes to 1–3 segments of 1–4 words.",
        "Domain 'one_two_three_four_five' has a segment of more than 4 words ('one_two_three_four_five'); keep domain codes to 1–3 segments of 1–4 words.",
      ]);
      expect(domainShape.severity).to.equal('warning');
    });
  });

  describe('when the domain is short', () => {
    it('should pass', () => {
      expect(
        runRule(domainShape, ['domain = "legal.contracts.review"', 'domain = "due_diligence_report_v2"']),
      ).to.deep.equal([]);
    });
  });
});
