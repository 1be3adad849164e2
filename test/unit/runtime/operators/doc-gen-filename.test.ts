import { expect } from 'chai';
import { documentFilename, MAX_STEM_CHARS } from '../../../../shared/runtime/operators/doc-gen-filename.js';

describe('documentFilename (PipeDocGen, docs/document-generation.md)', () => {
  it('should replace each run of characters outside [\\w.-] by one dash', () => {
    expect(documentFilename('Invoice #42 / ACME', '.pdf', 'print')).to.equal('Invoice-42-ACME.pdf');
    expect(documentFilename('../../etc/passwd', '.pdf', 'print')).to.equal('..-..-etc-passwd.pdf');
  });

  it('should append the suffix once', () => {
    expect(documentFilename('report.pdf', '.pdf', 'print')).to.equal('report.pdf');
    expect(documentFilename('report.PDF', '.pdf', 'print')).to.equal('report.pdf');
    expect(documentFilename('report.xlsx', '.pdf', 'print')).to.equal('report.xlsx.pdf');
  });

  it('should cut the stem to its limit and fall back to the pipe code when nothing is left', () => {
    const name = documentFilename('a'.repeat(500), '.docx', 'print');
    expect(name).to.equal(`${'a'.repeat(MAX_STEM_CHARS)}.docx`);
    expect(documentFilename(' / ', '.xlsx', 'print_sheet')).to.equal('print_sheet.xlsx');
  });
});
