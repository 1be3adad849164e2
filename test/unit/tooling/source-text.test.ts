import { expect } from 'chai';
import { SourceText } from '../../../shared/tooling/source-text.js';

describe('SourceText', () => {
  it('should give 0-based byte offsets and 1-based lines and columns', () => {
    expect(new SourceText('key = ').range(6, 6)).to.deep.equal({
      start_offset: 6,
      end_offset: 6,
      start_line: 1,
      start_col: 7,
      end_line: 1,
      end_col: 7,
    });
  });

  it('should count bytes for offsets and characters for columns on multi-byte text', () => {
    const text = 'a = "é€"\nb = "😀" x\n';
    const index = text.indexOf('x');
    expect(new SourceText(text).range(text.indexOf('"😀"'), index)).to.deep.equal({
      start_offset: Buffer.byteLength('a = "é€"\nb = ', 'utf8'),
      end_offset: Buffer.byteLength(text.slice(0, index), 'utf8'),
      start_line: 2,
      start_col: 5,
      end_line: 2,
      end_col: 9,
    });
  });

  it('should clamp indices to the text and never end before the start', () => {
    expect(new SourceText('ab\n').range(10, 2)).to.deep.equal({
      start_offset: 3,
      end_offset: 3,
      start_line: 2,
      start_col: 1,
      end_line: 2,
      end_col: 1,
    });
  });
});
