import { expect } from 'chai';
import { parseConceptRef, parsePipeRef, stripMultiplicity } from '../../../shared/mthds/index.js';
import { toPascalCase, toSnakeCase } from '../../../shared/mthds/references.js';

describe('parseConceptRef', () => {
  const table: [string, ReturnType<typeof parseConceptRef>][] = [
    ['Text', { code: 'Text', multiplicity: 'single' }],
    ['Text[]', { code: 'Text', multiplicity: 'variable' }],
    ['InterviewQuestion[5]', { code: 'InterviewQuestion', multiplicity: 5 }],
    ['native.Document[]', { domain: 'native', code: 'Document', multiplicity: 'variable' }],
    [
      'due_diligence_analysis.ContractualRisk[]',
      { domain: 'due_diligence_analysis', code: 'ContractualRisk', multiplicity: 'variable' },
    ],
    ['legal.contracts.Clause[3]', { domain: 'legal.contracts', code: 'Clause', multiplicity: 3 }],
    ['scoring->scoring.Score', { packageRef: 'scoring', domain: 'scoring', code: 'Score', multiplicity: 'single' }],
    [
      'github.com/Pipelex/methods/documents->documents.Page[]',
      {
        packageRef: 'github.com/Pipelex/methods/documents',
        domain: 'documents',
        code: 'Page',
        multiplicity: 'variable',
      },
    ],
    [' Text ', { code: 'Text', multiplicity: 'single' }],
    ['text', undefined],
    ['Text[0]', undefined],
    ['Text[-1]', undefined],
    ['Text[]]', undefined],
    ['Legal.Clause', undefined],
    ['legal..Clause', undefined],
    ['legal.Clause.', undefined],
    ['', undefined],
  ];
  for (const [ref, expected] of table) {
    describe(`when the reference is '${ref}'`, () => {
      it(`should return ${JSON.stringify(expected)}`, () => {
        expect(parseConceptRef(ref)).to.deep.equal(expected);
      });
    });
  }
});

describe('parsePipeRef', () => {
  const table: [string, ReturnType<typeof parsePipeRef>][] = [
    ['summarize', { code: 'summarize' }],
    ['legal.summarize_clause', { domain: 'legal', code: 'summarize_clause' }],
    [
      'github.com/Pipelex/methods/documents->documents.extract_text_pages',
      { packageRef: 'github.com/Pipelex/methods/documents', domain: 'documents', code: 'extract_text_pages' },
    ],
    ['Summarize', undefined],
    ['legal.Summarize', undefined],
    ['summarize[]', undefined],
  ];
  for (const [ref, expected] of table) {
    describe(`when the reference is '${ref}'`, () => {
      it(`should return ${JSON.stringify(expected)}`, () => {
        expect(parsePipeRef(ref)).to.deep.equal(expected);
      });
    });
  }
});

describe('stripMultiplicity', () => {
  describe('when a reference has a suffix', () => {
    it('should remove [] and [N] only', () => {
      expect(['Text[]', 'legal.Clause[3]', 'Text', ' Page[] '].map(stripMultiplicity)).to.deep.equal([
        'Text',
        'legal.Clause',
        'Text',
        'Page',
      ]);
    });
  });
});

describe('code spelling suggestions', () => {
  describe('when a code has the wrong casing', () => {
    it('should suggest PascalCase for concepts and snake_case for pipes', () => {
      expect(['match_analysis', 'invoice', 'my-thing', '3d_model'].map(toPascalCase)).to.deep.equal([
        'MatchAnalysis',
        'Invoice',
        'MyThing',
        'C3dModel',
      ]);
      expect(['SummarizeText', 'extract-pages', 'Write Draft', '_x'].map(toSnakeCase)).to.deep.equal([
        'summarize_text',
        'extract_pages',
        'write_draft',
        'x',
      ]);
    });
  });
});
