import { expect } from 'chai';
import { hintUnknownIntent } from '../../../../../shared/mthds/rules/references/hint-unknown-intent.js';
import { runRule } from '../harness.js';
import { HINTED, SLOTTED } from './hint-fixture.js';

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

  it('should warn about an unknown intent word on an expanded input slot', () => {
    expect(runRule(hintUnknownIntent, SLOTTED)).to.deep.equal([
      {
        category: 'blueprint_validation',
        message:
          "Pipe 'draft_reply', input 'tone': intent 'mood' is not an intent word (prose, label, rating, quantity); it is ignored.",
        error_type: 'hint_unknown_intent',
        source: 'bundle-1.mthds',
        pipe_code: 'draft_reply',
        domain_code: 'desk',
        field_path: 'pipe.draft_reply.inputs.tone.hints.intent',
        field_name: 'intent',
      },
    ]);
  });
});
