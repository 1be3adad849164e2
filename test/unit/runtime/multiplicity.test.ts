import { expect } from 'chai';
import { resolveMultiplicity, stepMultiplicityOverride } from '../../../shared/runtime/multiplicity.js';

describe('resolveMultiplicity (docs/runtime.md#multiplicity)', () => {
  const cases: [
    Parameters<typeof resolveMultiplicity>[0],
    Parameters<typeof resolveMultiplicity>[1],
    ReturnType<typeof resolveMultiplicity>,
  ][] = [
    ['single', null, 'single'],
    ['variable', null, 'variable'],
    [3, null, 3],
    ['single', 5, 5],
    ['single', true, 'variable'],
    [4, true, 4],
    ['variable', false, 'single'],
  ];
  for (const [base, override, expected] of cases) {
    it(`should resolve base ${String(base)} with override ${String(override)} to ${String(expected)}`, () => {
      expect(resolveMultiplicity(base, override)).to.equal(expected);
    });
  }
});

describe('stepMultiplicityOverride', () => {
  it('should prefer nb_output, then multiple_output, else none', () => {
    expect(stepMultiplicityOverride({ nb_output: 2 })).to.equal(2);
    expect(stepMultiplicityOverride({ multiple_output: true })).to.equal(true);
    expect(stepMultiplicityOverride({})).to.equal(null);
  });
});
