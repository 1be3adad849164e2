import { expect } from 'chai';
import { hintUnknownIntent } from '../../../../../shared/mthds/rules/s5/hint-unknown-intent.js';
import { runRule } from '../harness.js';
import { HINTED } from './hint-fixture.js';

describe('S5-hint-unknown-intent', () => {
  it('should warn about an intent word the standard does not define', () => {
    expect(runRule(hintUnknownIntent, HINTED)).to.deep.equal([
      {
        category: 'blueprint_validation',
        message:
          "Concept 'Product', field 'status': intent 'headline' is not an intent word (prose, label, rating, quantity); it is ignored.",
        error_type: 'hint_unknown_intent',
        source: 'bundle-1.mthds',
        concept_code: 'Product',
        domain_code: 'catalog',
        field_path: 'concept.Product.structure.status.hints.intent',
        field_name: 'intent',
      },
    ]);
  });
});
