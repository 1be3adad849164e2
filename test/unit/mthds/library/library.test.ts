import { expect } from 'chai';
import { ConceptAmbiguityError, ConceptNotFoundError, PipeNotFoundError } from '../../../../shared/errors/index.js';
import { libraryOf as library } from '../../../helpers/library.js';

const LEGAL = `domain = "legal"
main_pipe = "summarize"
[concept.Clause]
description = "A clause"
[concept.Summary]
description = "A summary of a clause"
refines = "Text"
[concept.ShortSummary]
description = "A short summary"
refines = "Summary"
[concept.Note]
description = "A note"
[concept.Risk]
description = "A risk"
[concept.Risk.structure]
level = { type = "integer", description = "Level", required = true }
[pipe.summarize]
type = "PipeLLM"
description = "Summarize"
inputs = { clause = "Clause", "page.page_view" = "Image" }
output = "Summary[]"
prompt = "Summarize @clause and $page.page_view"
`;
const FINANCE = `domain = "finance"
main_pipe = "assess"
[concept.Clause]
description = "A financial clause"
[concept.Budget]
description = "A budget"
[pipe.assess]
type = "PipeLLM"
description = "Assess"
inputs = { clause = "legal.Clause" }
output = "Text"
prompt = "Assess @clause"
[pipe.summarize]
type = "PipeLLM"
description = "Summarize a finance clause"
inputs = { clause = "Clause" }
output = "Text"
prompt = "Summarize @clause"
`;

describe('Library', () => {
  describe('when built from two bundles in different domains', () => {
    const lib = library(LEGAL, FINANCE);

    it('should hold every loaded concept and the natives', () => {
      expect([...lib.concepts.keys()]).to.deep.equal([
        'native.Text',
        'native.Markdown',
        'native.Number',
        'native.Image',
        'native.Document',
        'native.Html',
        'native.TextAndImages',
        'native.Page',
        'native.JSON',
        'native.SearchResult',
        'native.YesNo',
        'native.Choice',
        'native.Rating',
        'native.ImgGenPrompt',
        'native.Dynamic',
        'native.Anything',
        'native.Date',
        'native.Time',
        'native.Composite',
        'legal.Clause',
        'legal.Summary',
        'legal.ShortSummary',
        'legal.Note',
        'legal.Risk',
        'finance.Clause',
        'finance.Budget',
      ]);
    });

    it('should hold the pipes by qualified ref, inputs in authored order, refs qualified', () => {
      const pipe = lib.pipes.get('legal.summarize');
      expect({
        ref: pipe?.ref,
        code: pipe?.code,
        domain_code: pipe?.domain_code,
        type: pipe?.type,
        inputs: pipe?.inputs,
        output: pipe?.output,
        source: pipe?.source,
      }).to.deep.equal({
        ref: 'legal.summarize',
        code: 'summarize',
        domain_code: 'legal',
        type: 'PipeLLM',
        inputs: [
          { name: 'clause', conceptRef: 'legal.Clause', multiplicity: 'single', raw: 'Clause', presence: 'plain' },
          {
            name: 'page.page_view',
            conceptRef: 'native.Image',
            multiplicity: 'single',
            raw: 'Image',
            presence: 'plain',
          },
        ],
        output: { conceptRef: 'legal.Summary', multiplicity: 'variable', raw: 'Summary[]', presence: 'plain' },
        source: 'b1.mthds',
      });
      expect([...lib.pipes.keys()]).to.deep.equal(['legal.summarize', 'finance.assess', 'finance.summarize']);
    });

    it('should describe the concepts (refines qualified, structure normalised, structure class name)', () => {
      expect(lib.concepts.get('legal.ShortSummary')).to.deep.equal({
        ref: 'legal.ShortSummary',
        code: 'ShortSummary',
        domain_code: 'legal',
        description: 'A short summary',
        refines: 'legal.Summary',
        structure: null,
        structure_class_name: 'TextContent',
        isNative: false,
      });
      expect(lib.concepts.get('legal.Risk')).to.deep.equal({
        ref: 'legal.Risk',
        code: 'Risk',
        domain_code: 'legal',
        description: 'A risk',
        refines: null,
        structure: { level: { type: 'integer', description: 'Level', required: true } },
        structure_class_name: 'Risk',
        isNative: false,
      });
      expect(lib.concepts.get('native.Page')).to.include({
        structure_class_name: 'PageContent',
        isNative: true,
        refines: null,
        domain_code: 'native',
      });
    });

    it('should merge nothing across domains and keep the first main_pipe', () => {
      expect([...lib.domains.values()]).to.deep.equal([
        { code: 'legal', main_pipe: 'summarize' },
        { code: 'finance', main_pipe: 'assess' },
      ]);
      expect(lib.mainPipe()?.ref).to.equal('legal.summarize');
    });
  });

  describe('resolveConcept', () => {
    const lib = library(LEGAL, FINANCE);

    describe('when the name is native', () => {
      it('should resolve bare and qualified names and ignore the multiplicity', () => {
        expect(['Text', 'native.Text', 'Text[]', 'Page[3]'].map((ref) => lib.resolveConcept(ref).ref)).to.deep.equal([
          'native.Text',
          'native.Text',
          'native.Text',
          'native.Page',
        ]);
      });
    });

    describe('when the name is qualified', () => {
      it('should resolve in that domain', () => {
        expect(lib.resolveConcept('finance.Clause', 'legal').ref).to.equal('finance.Clause');
      });
    });

    describe('when a bare name is declared in one domain', () => {
      it('should resolve from any domain or none', () => {
        expect([lib.resolveConcept('Budget').ref, lib.resolveConcept('Budget', 'legal').ref]).to.deep.equal([
          'finance.Budget',
          'finance.Budget',
        ]);
      });
    });

    describe('when a bare name is declared in several domains', () => {
      it('should prefer the domain it is written in', () => {
        expect([lib.resolveConcept('Clause', 'legal').ref, lib.resolveConcept('Clause', 'finance').ref]).to.deep.equal([
          'legal.Clause',
          'finance.Clause',
        ]);
      });

      it('should throw ConceptAmbiguityError naming what to write without a domain', () => {
        expect(() => lib.resolveConcept('Clause')).to.throw(
          ConceptAmbiguityError,
          "Concept 'Clause' is declared in several domains: write 'legal.Clause' or 'finance.Clause' instead of the bare name.",
        );
      });
    });

    describe('when nothing matches', () => {
      it('should throw ConceptNotFoundError listing the declared concepts and a near match', () => {
        expect(() => lib.resolveConcept('budget')).to.throw(
          ConceptNotFoundError,
          "'budget' is not a concept reference: write a PascalCase code such as 'Text', or 'domain.Code'.",
        );
        expect(() => lib.resolveConcept('Invoice[]')).to.throw(
          ConceptNotFoundError,
          "Concept 'Invoice' is neither native nor declared by a loaded bundle (declared: legal.Clause, legal.Summary, legal.ShortSummary, legal.Note, legal.Risk, finance.Clause, finance.Budget).",
        );
        expect(() => lib.resolveConcept('legal.Budget')).to.throw(
          ConceptNotFoundError,
          "Did you mean 'finance.Budget'?",
        );
        expect(() => lib.resolveConcept('Json')).to.throw(ConceptNotFoundError, "Did you mean 'JSON'?");
      });
    });
  });

  describe('resolvePipe', () => {
    const lib = library(LEGAL, FINANCE);

    describe('when the reference is qualified', () => {
      it('should resolve in that domain', () => {
        expect(lib.resolvePipe('finance.summarize', 'legal').ref).to.equal('finance.summarize');
      });
    });

    describe('when a bare code is defined in the domain it is written in', () => {
      it('should resolve there first', () => {
        expect([lib.resolvePipe('summarize', 'legal').ref, lib.resolvePipe('summarize', 'finance').ref]).to.deep.equal([
          'legal.summarize',
          'finance.summarize',
        ]);
      });
    });

    describe('when a bare code is defined in one other domain', () => {
      it('should resolve package-wide', () => {
        expect(lib.resolvePipe('assess', 'legal').ref).to.equal('finance.assess');
      });
    });

    describe('when a bare code is defined in several other domains', () => {
      it('should throw PipeNotFoundError naming the qualified refs', () => {
        expect(() => lib.resolvePipe('summarize')).to.throw(
          PipeNotFoundError,
          "Pipe 'summarize' is defined in several domains: write 'legal.summarize' or 'finance.summarize' instead of the bare code.",
        );
      });
    });

    describe('when nothing matches', () => {
      it('should throw PipeNotFoundError listing the pipes', () => {
        expect(() => lib.resolvePipe('translate', 'legal')).to.throw(
          PipeNotFoundError,
          "Pipe 'translate' is not defined by the loaded bundles (pipes: finance.assess, finance.summarize, legal.summarize).",
        );
        expect(() => lib.resolvePipe('other->legal.translate')).to.throw(PipeNotFoundError);
      });
    });
  });

  describe('findConcept and findPipe', () => {
    const lib = library(LEGAL, FINANCE);

    describe('when the reference resolves', () => {
      it('should return what resolve* returns', () => {
        expect([lib.findConcept('Budget')?.ref, lib.findPipe('assess', 'legal')?.ref]).to.deep.equal([
          'finance.Budget',
          'finance.assess',
        ]);
      });
    });

    describe('when it is ambiguous, malformed or missing', () => {
      it('should return undefined instead of throwing', () => {
        expect([
          lib.findConcept('Clause'),
          lib.findConcept('clause'),
          lib.findConcept('Invoice'),
          lib.findPipe('summarize'),
          lib.findPipe('Summarize'),
          lib.findPipe('x->docs.read'),
        ]).to.deep.equal([undefined, undefined, undefined, undefined, undefined, undefined]);
      });
    });
  });

  describe('isCompatible', () => {
    const lib = library(LEGAL, FINANCE);
    const concept = (ref: string) => lib.resolveConcept(ref);

    describe('when the concepts are related by refinement', () => {
      it('should accept a descendant where an ancestor is expected, not the reverse', () => {
        expect(lib.isCompatible(concept('legal.ShortSummary'), concept('Text'))).to.equal(true);
        expect(lib.isCompatible(concept('legal.ShortSummary'), concept('legal.Summary'))).to.equal(true);
        expect(lib.isCompatible(concept('legal.Summary'), concept('legal.ShortSummary'))).to.equal(false);
      });
    });

    describe('when the expected concept is Anything', () => {
      it('should accept every concept, structured ones included', () => {
        expect(lib.isCompatible(concept('legal.Risk'), concept('Anything'))).to.equal(true);
      });
    });

    describe('when the concepts are unrelated', () => {
      it('should refuse', () => {
        expect(lib.isCompatible(concept('legal.Clause'), concept('finance.Clause'))).to.equal(false);
        expect(lib.isCompatible(concept('legal.Risk'), concept('Text'))).to.equal(false);
      });
    });
  });

  describe('isTextLike', () => {
    const lib = library(LEGAL, FINANCE);

    describe('when the concept is Text, refines it, or is description-only', () => {
      it('should be true', () => {
        expect(
          ['Text', 'legal.ShortSummary', 'legal.Note', 'ImgGenPrompt'].map((ref) =>
            lib.isTextLike(lib.resolveConcept(ref)),
          ),
        ).to.deep.equal([true, true, true, true]);
      });
    });

    describe('when the concept is structured or another native', () => {
      it('should be false', () => {
        expect(
          ['legal.Risk', 'Image', 'Page', 'Anything'].map((ref) => lib.isTextLike(lib.resolveConcept(ref))),
        ).to.deep.equal([false, false, false, false]);
      });
    });
  });

  describe('when two bundles share a domain', () => {
    it('should merge their concepts and pipes into one namespace', () => {
      const lib = library(
        'domain = "shop"\ndescription = "First"\n[concept]\nItem = "An item"',
        'domain = "shop"\nmain_pipe = "describe"\n[pipe.describe]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { item = "Item" }\noutput = "Text"\nprompt = "Describe $item"',
      );
      expect(lib.resolvePipe('shop.describe').inputs[0]?.conceptRef).to.equal('shop.Item');
      expect([...lib.domains.values()]).to.deep.equal([{ code: 'shop', description: 'First', main_pipe: 'describe' }]);
      expect(lib.bundles.map((bundle) => bundle.source)).to.deep.equal(['b1.mthds', 'b2.mthds']);
    });
  });
});
