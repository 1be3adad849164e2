import { expect } from 'chai';
import { childStepPath, ROOT_STEP_PATH } from '../../../shared/runtime/step-path.js';

describe('step paths (issue 17)', () => {
  it('should extend the parent path by one segment per kind of child', () => {
    const step = childStepPath(ROOT_STEP_PATH, 'step', 2);
    const item = childStepPath(step, 'item', 11);
    expect([step, item, childStepPath(item, 'branch', 0), childStepPath(step, 'outcome', 'say_calm')]).to.deep.equal([
      'main/s2',
      'main/s2/b11',
      'main/s2/b11/p0',
      'main/s2/c:say_calm',
    ]);
  });
});
