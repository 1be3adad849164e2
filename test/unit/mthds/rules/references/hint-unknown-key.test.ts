import { expect } from 'chai';
import { hintUnknownKey } from '../../../../../shared/mthds/rules/references/hint-unknown-key.js';
import { runRule } from '../harness.js';
import { HINTED, SLOTTED } from './hint-fixture.js';

describe('S5-hint-unknown-key', () => {
  it('should warn about each key other than intent, on concepts and fields', () => {
    const items = runRule(hintUnknownKey, HINTED);
    expect(items[0]).to.deep.equal({
      category: 'blueprint_validation',
      message:
        "Concept 'Score': hint 'tone' is not defined by the standard (hint keys: intent); it is kept but means nothing.",
      error_type: 'hint_unknown_key',
      source: 'bundle-1.mthds',
      concept_code: 'Score',
      domain_code: 'catalog',
      field_path: 'concept.Score.hints.tone',
      field_name: 'tone',
    });
    expect(items.slice(1).map((item) => item.field_path)).to.deep.equal([
      'concept.Product.structure.stars.hints.widget',
    ]);
  });

  it('should warn about a key other than intent on an expanded input slot, located on the pipe', () => {
    expect(runRule(hintUnknownKey, SLOTTED)).to.deep.equal([
      {
        category: 'blueprint_validation',
        message:
          "Pipe 'draft_reply', input 'budget': hint 'size' is not defined by the standard (hint keys: intent); it is kept but means nothing.",
        error_type: 'hint_unknown_key',
        source: 'bundle-1.mthds',
        pipe_code: 'draft_reply',
        domain_code: 'desk',
        field_path: 'pipe.draft_reply.inputs.budget.hints.size',
        field_name: 'size',
      },
    ]);
  });
});
