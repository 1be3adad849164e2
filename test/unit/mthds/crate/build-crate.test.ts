import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { buildCrate, type Crate } from '../../../../shared/mthds/index.js';
import { validLibrary } from '../../../helpers/library.js';

function crateOf(files: { content: string; source: string | null }[]): Crate {
  return buildCrate(validLibrary(files));
}

const LEGAL = `domain = "legal"
description = "Legal analysis"
main_pipe = "review"

[concept.Clause]
description = "A clause"

[concept.Risk]
description = "A risk"

[concept.Risk.structure]
level = { type = "integer", description = "Level", required = true }
note = "A free note"
clause = { type = "concept", concept_ref = "Clause", description = "The clause" }
pages = { type = "list", item_type = "concept", item_concept_ref = "Page", description = "Pages" }
kind = { type = "text", choices = ["a", "b"], description = "Kind" }

[concept.MajorRisk]
description = "A major risk"
refines = "Risk"

[concept.Summary]
description = "A summary"
refines = "Text"

[concept.ShortSummary]
description = "A short summary"
refines = "legal.Summary"

[pipe.review]
type = "PipeSequence"
description = "Review"
inputs = { clauses = "Clause[]" }
output = "MajorRisk[3]"
steps = [
  { pipe = "summarize", result = "summaries", batch_over = "clauses", batch_as = "clause" },
  { pipe = "finance.rate", result = "risk" },
]

[pipe.summarize]
type = "PipeFunc"
description = "Summarize"
inputs = { clause = "Clause" }
output = "ShortSummary"
function_name = "summarize"

[pipe.route]
type = "PipeCondition"
description = "Route"
inputs = { clause = "legal.Clause" }
output = "Text?"
expression = "clause"
outcomes = { short = "summarize", other = "fail" }
default_outcome = "continue"

[pipe.each]
type = "PipeBatch"
description = "Each"
inputs = { clauses = "Clause[]" }
output = "ShortSummary[]"
branch_pipe_code = "summarize"
input_list_name = "clauses"
input_item_name = "clause"

[pipe.fan]
type = "PipeParallel"
description = "Fan"
inputs = { clause = "Clause" }
output = "Text"
combined_output = "Text"
branches = [{ pipe = "summarize", result = "short" }]
`;

const FINANCE = `domain = "finance"

[pipe.rate]
type = "PipeFunc"
description = "Rate"
inputs = { summaries = "legal.ShortSummary[]" }
output = "legal.MajorRisk[3]"
function_name = "rate"

[pipe.fetch]
type = "PipeSequence"
description = "Calls a pipe of another package"
inputs = { document = "Document" }
output = "docs->documents.Page[]"
steps = [{ pipe = "github.com/acme/methods/docs->documents.extract_pages", result = "pages" }]
`;

/**
 * The package `finance.fetch` calls by address: loaded, as a cross-package reference needs
 * (docs/namespaces.md#cross-package-references).
 */
const DOCUMENTS = `domain = "documents"

[pipe.extract_pages]
type = "PipeFunc"
description = "Extract pages"
inputs = { document = "Document" }
output = "Page[]"
function_name = "extract_pages"
`;

const FILES = [
  { content: LEGAL, source: 'legal.mthds' },
  { content: FINANCE, source: 'finance.mthds' },
  { content: DOCUMENTS, source: 'documents.mthds' },
];

describe('buildCrate (docs/crate.md#crate-shape)', () => {
  const crate = crateOf(FILES);

  describe('when building the crate of a library calling another package', () => {
    it('should order the members as the contract does', () => {
      expect(Object.keys(crate)).to.deep.equal([
        'mthds_version',
        'concepts',
        'pipes',
        'domains',
        'source_map',
        'fingerprint',
      ]);
      expect(crate.mthds_version).to.equal('1.0.0');
    });

    it('should key-sort every top-level map', () => {
      expect(Object.keys(crate.concepts)).to.deep.equal([
        'legal.Clause',
        'legal.MajorRisk',
        'legal.Risk',
        'legal.ShortSummary',
        'legal.Summary',
        'native.Document',
        'native.Page',
        'native.Text',
      ]);
      expect(Object.keys(crate.pipes)).to.deep.equal([
        'documents.extract_pages',
        'finance.fetch',
        'finance.rate',
        'legal.each',
        'legal.fan',
        'legal.review',
        'legal.route',
        'legal.summarize',
      ]);
      expect(Object.keys(crate.domains)).to.deep.equal(['documents', 'finance', 'legal']);
    });

    it('should qualify the concept refs of inputs and output, keeping their multiplicity', () => {
      expect(crate.pipes['legal.review']).to.deep.include({
        inputs: { clauses: 'legal.Clause[]' },
        output: 'legal.MajorRisk[3]',
      });
      expect(crate.pipes['finance.rate']).to.deep.include({
        inputs: { summaries: 'legal.ShortSummary[]' },
        output: 'legal.MajorRisk[3]',
      });
      expect(crate.pipes['legal.route']).to.deep.include({
        inputs: { clause: 'legal.Clause' },
        output: 'native.Text?',
      });
    });

    it('should qualify step pipe refs, bare and cross-domain, and keep the other step members', () => {
      expect(crate.pipes['legal.review']).to.deep.equal({
        type: 'PipeSequence',
        description: 'Review',
        inputs: { clauses: 'legal.Clause[]' },
        output: 'legal.MajorRisk[3]',
        steps: [
          { pipe: 'legal.summarize', result: 'summaries', batch_over: 'clauses', batch_as: 'clause' },
          { pipe: 'finance.rate', result: 'risk' },
        ],
      });
    });

    it('should qualify outcome pipe refs and leave fail and continue as they are', () => {
      expect(crate.pipes['legal.route']).to.deep.equal({
        type: 'PipeCondition',
        description: 'Route',
        inputs: { clause: 'legal.Clause' },
        output: 'native.Text?',
        expression: 'clause',
        outcomes: { short: 'legal.summarize', other: 'fail' },
        default_outcome: 'continue',
      });
    });

    it('should qualify the batch branch, the parallel branches and the combined output', () => {
      expect(crate.pipes['legal.each']).to.deep.include({
        branch_pipe_code: 'legal.summarize',
        output: 'legal.ShortSummary[]',
      });
      expect(crate.pipes['legal.fan']).to.deep.include({
        branches: [{ pipe: 'legal.summarize', result: 'short' }],
        combined_output: 'native.Text',
      });
    });

    it('should leave cross-package refs untouched', () => {
      expect(crate.pipes['finance.fetch']).to.deep.include({
        output: 'docs->documents.Page[]',
        steps: [{ pipe: 'github.com/acme/methods/docs->documents.extract_pages', result: 'pages' }],
      });
    });

    it('should emit a structured concept with its fields normalized, refs qualified, members in contract order', () => {
      expect(crate.concepts['legal.Risk']).to.deep.equal({
        description: 'A risk',
        structure: {
          level: { description: 'Level', type: 'integer', required: true },
          note: { description: 'A free note', type: 'text', required: false },
          clause: { description: 'The clause', type: 'concept', concept_ref: 'legal.Clause', required: false },
          pages: {
            description: 'Pages',
            type: 'list',
            item_type: 'concept',
            item_concept_ref: 'native.Page',
            required: false,
          },
          kind: { description: 'Kind', choices: ['a', 'b'], required: false },
        },
      });
      expect(Object.keys(crate.concepts['legal.Risk']!.structure!['pages']!)).to.deep.equal([
        'description',
        'type',
        'item_type',
        'item_concept_ref',
        'required',
      ]);
    });

    it('should flatten a refinement of a structured concept into its effective structure, without refines', () => {
      expect(crate.concepts['legal.MajorRisk']).to.deep.equal({
        description: 'A major risk',
        structure: crate.concepts['legal.Risk']!.structure,
      });
    });

    it('should keep refines when the chain ends at a native, naming the native', () => {
      expect(crate.concepts['legal.Summary']).to.deep.equal({ description: 'A summary', refines: 'native.Text' });
      expect(crate.concepts['legal.ShortSummary']).to.deep.equal({
        description: 'A short summary',
        refines: 'native.Text',
      });
    });

    it('should emit a description-only concept as a description-only object', () => {
      expect(crate.concepts['legal.Clause']).to.deep.equal({ description: 'A clause' });
    });

    it('should materialize every referenced native, and only those', () => {
      expect(crate.concepts['native.Text']).to.deep.equal({ description: 'A text' });
      expect(crate.concepts['native.Page']).to.deep.equal({
        description: 'A page of a document: its text and images, and a view of the page',
      });
      expect(crate.concepts['native.Document']).to.deep.equal({ description: 'A document' });
      expect(crate.concepts).to.not.have.property('native.Image');
    });

    it('should map every declared concept and pipe to the source label of its file', () => {
      expect(crate.source_map).to.deep.equal({
        'documents.extract_pages': 'documents.mthds',
        'finance.fetch': 'finance.mthds',
        'finance.rate': 'finance.mthds',
        'legal.Clause': 'legal.mthds',
        'legal.MajorRisk': 'legal.mthds',
        'legal.Risk': 'legal.mthds',
        'legal.ShortSummary': 'legal.mthds',
        'legal.Summary': 'legal.mthds',
        'legal.each': 'legal.mthds',
        'legal.fan': 'legal.mthds',
        'legal.review': 'legal.mthds',
        'legal.route': 'legal.mthds',
        'legal.summarize': 'legal.mthds',
      });
    });

    it('should emit the domains with their header facts and nothing null', () => {
      expect(crate.domains).to.deep.equal({
        documents: { code: 'documents' },
        finance: { code: 'finance' },
        legal: { code: 'legal', description: 'Legal analysis', main_pipe: 'review' },
      });
    });
  });

  describe('when a file is sent without a source label', () => {
    it('should leave its refs out of the source map', () => {
      const unlabelled = crateOf([
        { content: LEGAL, source: 'legal.mthds' },
        { content: FINANCE, source: null },
        { content: DOCUMENTS, source: 'documents.mthds' },
      ]);
      expect(Object.keys(unlabelled.source_map).filter((ref) => ref.startsWith('finance.'))).to.deep.equal([]);
      expect(unlabelled.source_map['legal.review']).to.equal('legal.mthds');
    });
  });

  describe('when the library is one minimal bundle', () => {
    const minimal = crateOf([
      {
        content:
          'domain = "smoke"\n[pipe.echo]\ntype = "PipeFunc"\ndescription = "Echo"\ninputs = { text = "Text" }\noutput = "Text"\nfunction_name = "echo"\n',
        source: 'main.mthds',
      },
    ]);

    it('should be exactly the canonical crate', () => {
      expect(minimal).to.deep.equal({
        mthds_version: '1.0.0',
        concepts: { 'native.Text': { description: 'A text' } },
        pipes: {
          'smoke.echo': {
            type: 'PipeFunc',
            description: 'Echo',
            inputs: { text: 'native.Text' },
            output: 'native.Text',
            function_name: 'echo',
          },
        },
        domains: { smoke: { code: 'smoke' } },
        source_map: { 'smoke.echo': 'main.mthds' },
        fingerprint: minimal.fingerprint,
      });
    });

    it('should fingerprint the compact key-sorted JSON of concepts, pipes and domains with SHA-256', () => {
      const canonical =
        '{"concepts":{"native.Text":{"description":"A text"}},"domains":{"smoke":{"code":"smoke"}},' +
        '"pipes":{"smoke.echo":{"description":"Echo","function_name":"echo","inputs":{"text":"native.Text"},"output":"native.Text","type":"PipeFunc"}}}';
      expect(minimal.fingerprint).to.equal(createHash('sha256').update(canonical, 'utf8').digest('hex'));
      expect(minimal.fingerprint).to.match(/^[0-9a-f]{64}$/);
    });
  });
});
