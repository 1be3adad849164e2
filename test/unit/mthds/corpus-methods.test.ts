import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { loadLibrary, pipeSteps } from '../../../shared/mthds/index.js';
import { corpusText } from '../../helpers/corpus.js';

const METHODS = new URL('../../../../shared/corpus/methods/', import.meta.url);
const bundles = readdirSync(METHODS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
  .flatMap((entry) =>
    readdirSync(new URL(`${entry.name}/`, METHODS))
      .filter((file) => file.endsWith('.mthds'))
      .map((file) => `${entry.name}/${file}`),
  );
const DOCUMENTS = 'documents/documents.mthds';

describe('published methods (corpus/methods)', () => {
  describe('when listing the corpus', () => {
    it('should find the seven bundles of the corpus', () => {
      expect(bundles.sort()).to.deep.equal([
        'compliance_checker/bundle.mthds',
        'cv_analyzer/cv_analyzer.mthds',
        'doc_summarizer/bundle.mthds',
        'documents/documents.mthds',
        'entity_extractor/bundle.mthds',
        'key_fact_extractor/bundle.mthds',
        'report_writer/bundle.mthds',
      ]);
    });
  });

  const callsDocuments = (file: string) => corpusText(`methods/${file}`).includes('/documents->');

  for (const file of bundles.filter((candidate) => !callsDocuments(candidate))) {
    describe(`when loading ${file} alone in compat mode`, () => {
      it('should be valid with no warning', () => {
        const result = loadLibrary([{ content: corpusText(`methods/${file}`), source: file }]);
        expect(result.ok ? { ok: true, warnings: result.warnings } : result).to.deep.equal({ ok: true, warnings: [] });
      });
    });
  }

  for (const file of bundles.filter(callsDocuments)) {
    describe(`when loading ${file} alone, without the documents package it calls (docs/namespaces.md#cross-package-references)`, () => {
      it('should be invalid with one unresolved_package_dependency item, on the first reference', () => {
        const result = loadLibrary([{ content: corpusText(`methods/${file}`), source: file }]);
        const items = result.ok ? [] : result.errors;
        expect(items.map((item) => [item.error_type, item.missing_pipe_code?.split('->')[0]])).to.deep.equal([
          ['unresolved_package_dependency', 'github.com/Pipelex/methods/documents'],
        ]);
      });
    });
  }

  for (const file of bundles.filter(callsDocuments)) {
    describe(`when loading ${file} together with the documents package`, () => {
      it('should be valid and resolve every step pipe, cross-package ones included', () => {
        const result = loadLibrary([
          { content: corpusText(`methods/${file}`), source: file },
          { content: corpusText(`methods/${DOCUMENTS}`), source: DOCUMENTS },
        ]);
        if (!result.ok) throw new Error(result.message);
        const steps = [...result.library.pipes.values()].flatMap((pipe) =>
          pipe.blueprint.type === 'PipeSequence'
            ? pipeSteps(pipe.blueprint.steps).map((step) => ({ ref: step.pipe, from: pipe.domain_code }))
            : [],
        );
        const crossPackage = steps.filter(({ ref }) => ref.includes('->'));
        expect(crossPackage.length).to.be.greaterThan(0);
        expect(crossPackage.map(({ ref, from }) => result.library.resolvePipe(ref, from).domain_code)).to.deep.equal(
          crossPackage.map(() => 'documents'),
        );
        expect(() => {
          for (const { ref, from } of steps) result.library.resolvePipe(ref, from);
        }).to.not.throw();
      });
    });
  }

  describe('when a consumer calls documents by address', () => {
    it('should resolve the address-form reference to the loaded documents pipe', () => {
      const result = loadLibrary([
        { content: corpusText('methods/doc_summarizer/bundle.mthds'), source: 'doc_summarizer.mthds' },
        { content: corpusText(`methods/${DOCUMENTS}`), source: DOCUMENTS },
      ]);
      if (!result.ok) throw new Error(result.message);
      const pipe = result.library.resolvePipe(
        'github.com/Pipelex/methods/documents->documents.extract_text_pages',
        'document_summarization',
      );
      expect({ ref: pipe.ref, inputs: pipe.inputs, output: pipe.output }).to.deep.equal({
        ref: 'documents.extract_text_pages',
        inputs: [
          {
            name: 'document',
            conceptRef: 'native.Document',
            multiplicity: 'single',
            raw: 'Document',
            presence: 'plain',
          },
        ],
        output: { conceptRef: 'native.Page', multiplicity: 'variable', raw: 'Page[]', presence: 'plain' },
      });
    });
  });
});
