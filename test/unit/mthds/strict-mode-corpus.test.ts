import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { type BundleSource, loadLibrary } from '../../../shared/mthds/index.js';
import { corpusText } from '../../helpers/corpus.js';

const CORPUS = new URL('../../../../shared/corpus/', import.meta.url);
const DOCUMENTS = 'methods/documents/documents.mthds';

/** Every valid `.mthds` of the corpus (the `invalid/` samples excluded), as paths under `corpus/`. */
function validCorpusBundles(): string[] {
  const walk = (relative: string): string[] =>
    readdirSync(new URL(relative, CORPUS), { withFileTypes: true }).flatMap((entry) => {
      if (entry.isDirectory())
        return entry.name === 'invalid' || entry.name.startsWith('_') ? [] : walk(`${relative}${entry.name}/`);
      return entry.name.endsWith('.mthds') ? [`${relative}${entry.name}`] : [];
    });
  return [...walk('methods/'), ...walk('pipelex-api-samples/')].sort();
}

function sourcesOf(path: string): BundleSource[] {
  const content = corpusText(path);
  const sources = [{ content, source: path }];
  return content.includes('/documents->')
    ? [...sources, { content: corpusText(DOCUMENTS), source: DOCUMENTS }]
    : sources;
}

/**
 * What strict mode reports on the corpus, by bundle: the deviations docs/language.md lists ("Strict and compat"),
 * each as `error_type` and the concept field or pipe it is about. A bundle absent here is valid in strict mode too.
 */
const STRICT_DEVIATIONS: Record<string, string[]> = {
  'methods/compliance_checker/bundle.mthds': [
    'invalid_concept_field Rule.severity',
    'invalid_concept_field ComplianceResult.status',
    'invalid_concept_field ComplianceResult.severity',
  ],
  'methods/doc_summarizer/bundle.mthds': [
    'invalid_concept_field DocumentProfile.document_type',
    'invalid_concept_field DocumentProfile.structure_type',
    'invalid_concept_field KeyPoint.importance',
    'invalid_concept_field KeyPoint.category',
    'invalid_concept_field Summary.document_type',
  ],
  'methods/entity_extractor/bundle.mthds': ['invalid_concept_field Entity.entity_type'],
  'methods/key_fact_extractor/bundle.mthds': [
    'invalid_concept_field Fact.category',
    'invalid_concept_field Fact.confidence',
  ],
  'methods/report_writer/bundle.mthds': [
    'invalid_concept_field ReportConfig.format',
    'invalid_concept_field ReportConfig.tone',
  ],
  'pipelex-api-samples/batch_candidate_screening.mthds': [
    'input_stuff_spec_mismatch prepare_job_offer',
    'input_stuff_spec_mismatch process_cv',
  ],
};

describe('strict mode on the corpus', () => {
  const bundles = validCorpusBundles();

  it('should cover every valid bundle of the corpus', () => {
    expect(bundles).to.have.length(12);
  });

  for (const path of bundles) {
    it(`should report on ${path} only the documented deviations, which compat accepts`, () => {
      const compat = loadLibrary(sourcesOf(path), { mode: 'compat' });
      expect(compat.ok, compat.ok ? '' : compat.message).to.equal(true);
      const strict = loadLibrary(sourcesOf(path), { mode: 'strict' });
      const reported = strict.ok
        ? []
        : strict.errors.map(
            (item) =>
              `${item.error_type} ${item.concept_code ? `${item.concept_code}.${item.field_name}` : item.pipe_code}`,
          );
      expect(reported).to.deep.equal(STRICT_DEVIATIONS[path] ?? []);
    });
  }
});
