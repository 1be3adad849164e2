/**
 * Strings where a run request declares `bool | int` (api/requests/lax-values.ts, docs/api.md#lax-values): read as the
 * reference's lax mode reads them, a boolean word first, then an integer; `output_multiplicity` then keeps its own range.
 */
import { expect } from 'chai';
import { laxBooleanOrInteger } from '../../../api/requests/lax-values.js';
import { parseRunRequest } from '../../../api/run-request.js';
import { ValidationError } from '../../../shared/errors/index.js';

/** What the reference's lax mode answers for each text (measured with its validator): undefined for a refusal. */
const LAX_READINGS: ReadonlyArray<[string, boolean | number | undefined]> = [
  ['1', true],
  ['0', false],
  ['true', true],
  ['false', false],
  ['True', true],
  ['TRUE', true],
  ['yes', true],
  ['No', false],
  ['on', true],
  ['off', false],
  ['t', true],
  ['f', false],
  ['y', true],
  ['n', false],
  ['3', 3],
  [' 3 ', 3],
  [' 1', 1],
  ['\t3\n', 3],
  ['01', 1],
  ['00', 0],
  ['+3', 3],
  ['-1', -1],
  ['1_000', 1000],
  ['2.0', 2],
  ['1.0', 1],
  ['2.00', 2],
  ['0.0', 0],
  ['', undefined],
  ['abc', undefined],
  [' true ', undefined],
  ['2.5', undefined],
  ['1.000000000000000000001', undefined],
  ['3.', undefined],
  ['.0', undefined],
  ['1e1', undefined],
  ['0x10', undefined],
  ['1__0', undefined],
  ['_1', undefined],
  ['1_', undefined],
  ['+ 3', undefined],
  ['1 000', undefined],
  ['٣', undefined],
];

function multiplicityOf(value: unknown): unknown {
  return parseRunRequest({ mthds_contents: ['x'], output_multiplicity: value }).output_multiplicity;
}

function refusalOf(value: unknown): string {
  try {
    multiplicityOf(value);
  } catch (error) {
    expect(error).to.be.instanceOf(ValidationError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(value)} was accepted`);
}

describe('lax request values (api/requests/lax-values.ts)', () => {
  it('should read each text as the reference’s lax mode reads a bool | int field', () => {
    const read = LAX_READINGS.map(([text]) => [text, laxBooleanOrInteger(text)]);
    expect(read).to.deep.equal(LAX_READINGS);
  });

  it('should take output_multiplicity sent as a string as the boolean or the count it reads as', () => {
    expect(['1', '3', 'true', 'false', '0', ' 2 ', '2.0'].map(multiplicityOf)).to.deep.equal([
      true,
      3,
      true,
      false,
      false,
      2,
      2,
    ]);
    expect([true, false, 1, 3, null, undefined].map(multiplicityOf)).to.deep.equal([
      true,
      false,
      1,
      3,
      null,
      undefined,
    ]);
  });

  it('should refuse a string that reads as neither, or a count out of range, naming the field', () => {
    const range = 'must be true, false or a count from 1 to 1000 (MAX_MULTIPLICITY)';
    expect(refusalOf('many')).to.equal(`body.output_multiplicity: 'many' ${range}`);
    expect(refusalOf('')).to.equal(`body.output_multiplicity: '' ${range}`);
    expect(refusalOf('-1')).to.equal(`body.output_multiplicity: ${range}`);
    expect(refusalOf('5000')).to.equal(`body.output_multiplicity: ${range}`);
    expect(refusalOf(0)).to.equal(`body.output_multiplicity: ${range}`);
  });
});
