import { expect } from 'chai';
import { structureClassesIn } from '../../../shared/methods/index.js';

describe('structureClassesIn (spec §2.2: structure classes are always refused)', () => {
  it('should find direct, dotted and indirect StructuredContent subclasses', () => {
    const source = [
      'from pipelex.core.stuffs.structured_content import StructuredContent',
      'import pipelex.core.stuffs as stuffs',
      'class Invoice(StructuredContent):',
      '    amount: float',
      'class Line(stuffs.StructuredContent, Generic[T]):',
      '    pass',
      'class Special(Invoice):',
      '    pass',
      'class Plain:',
      '    pass',
      'class Helper(object):',
      '    pass',
    ].join('\n');
    expect(structureClassesIn(source)).to.deep.equal(['Invoice', 'Line', 'Special']);
  });

  it('should ignore comments, strings and plain helpers', () => {
    const source =
      '# class Fake(StructuredContent):\nDOC = """class Fake2(StructuredContent):"""\ndef shout(text):\n    return text.upper()\n';
    expect(structureClassesIn(source)).to.deep.equal([]);
  });
});
