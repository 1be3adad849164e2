import { expect } from 'chai';
import { hintInapplicableIntent } from '../../../../../shared/mthds/rules/references/hint-inapplicable-intent.js';
import { runRule } from '../harness.js';
import { HINTED, SLOTTED } from './hint-fixture.js';

describe('S5-hint-inapplicable-intent', () => {
  it('should warn where a known word does not fit the value of its site, and pass where it does', () => {
    expect(runRule(hintInapplicableIntent, HINTED).map((item) => [item.field_path, item.message])).to.deep.equal([
      [
        'concept.Score.hints.intent',
        "Concept 'Score': intent 'prose' does not apply to a number value (prose and label fit text, rating and quantity fit numbers); it is ignored.",
      ],
      [
        'concept.Product.hints.intent',
        "Concept 'Product': intent 'rating' does not apply to a structured or other value (prose and label fit text, rating and quantity fit numbers); it is ignored.",
      ],
      [
        'concept.Product.structure.launched.hints.intent',
        "Concept 'Product', field 'launched': intent 'quantity' does not apply to a structured or other value (prose and label fit text, rating and quantity fit numbers); it is ignored.",
      ],
    ]);
  });

  it('should judge an expanded input slot by its concept: a text slot takes prose, a number or list slot no label', () => {
    expect(
      runRule(hintInapplicableIntent, SLOTTED).map((item) => [item.pipe_code, item.field_path, item.message]),
    ).to.deep.equal([
      [
        'draft_reply',
        'pipe.draft_reply.inputs.budget.hints.intent',
        "Pipe 'draft_reply', input 'budget': intent 'label' does not apply to a number value (prose and label fit text, rating and quantity fit numbers); it is ignored.",
      ],
      [
        'draft_reply',
        'pipe.draft_reply.inputs.tags.hints.intent',
        "Pipe 'draft_reply', input 'tags': intent 'label' does not apply to a structured or other value (prose and label fit text, rating and quantity fit numbers); it is ignored.",
      ],
    ]);
  });
});
