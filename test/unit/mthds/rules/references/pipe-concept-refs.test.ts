import { expect } from 'chai';
import { pipeConceptRefs } from '../../../../../shared/mthds/rules/references/pipe-concept-refs.js';
import { bundle, runRule } from '../harness.js';

const llm = (domain: string, inputs: string, output: string) =>
  bundle(
    domain,
    `[pipe.work]\ntype = "PipeLLM"\ndescription = "d"\ninputs = ${inputs}\noutput = "${output}"\nprompt = "go"`,
  );
const HR = bundle('hr', '[concept]\nCandidate = "A candidate"\nNote = "A note"');
const LEGAL = bundle('legal', '[concept]\nNote = "A legal note"');

describe('S5-pipe-concept-refs', () => {
  describe('when an output concept is declared nowhere', () => {
    it('should report it with the missing code and the declared concepts', () => {
      expect(runRule(pipeConceptRefs, [llm('jobs', '{ topic = "Text" }', 'Invoice[]'), HR])).to.deep.equal([
        {
          category: 'pipe_validation',
          message: "Pipe 'work', field 'output': concept 'Invoice' is neither native nor declared by a loaded bundle.",
          error_type: 'unresolved_concept',
          source: 'bundle-1.mthds',
          pipe_code: 'work',
          domain_code: 'jobs',
          field_path: 'pipe.work.output',
          field_name: 'output',
          missing_concept_code: 'Invoice',
          declared_concepts: ['hr.Candidate', 'hr.Note'],
        },
      ]);
    });
  });

  describe('when a qualified input names the wrong domain', () => {
    it('should report it', () => {
      expect(
        runRule(pipeConceptRefs, [llm('jobs', '{ c = "legal.Candidate" }', 'Text'), HR, LEGAL]).map(
          (item) => item.message,
        ),
      ).to.deep.equal(["Pipe 'work', field 'inputs.c': concept 'legal.Candidate' is not declared in domain 'legal'."]);
    });
  });

  describe('when a bare name is declared in several other domains', () => {
    it('should ask for the qualified ref', () => {
      expect(
        runRule(pipeConceptRefs, [llm('jobs', '{ n = "Note" }', 'Text'), HR, LEGAL]).map((item) => item.message),
      ).to.deep.equal([
        "Pipe 'work', field 'inputs.n': concept 'Note' is declared in several domains; write 'hr.Note' or 'legal.Note'.",
      ]);
    });
  });

  describe('when a bare name is declared in one other domain', () => {
    const texts = [llm('jobs', '{ c = "Candidate" }', 'Text'), HR];

    it('should pass in compat mode', () => {
      expect(runRule(pipeConceptRefs, texts, 'compat')).to.deep.equal([]);
    });

    it('should ask for the qualified ref in strict mode', () => {
      expect(runRule(pipeConceptRefs, texts, 'strict').map((item) => item.message)).to.deep.equal([
        "Pipe 'work', field 'inputs.c': concept 'Candidate' is declared in domain 'hr'; write 'hr.Candidate' (bare codes resolve in their own domain only).",
      ]);
    });
  });

  describe('when references are native, local, qualified, or to a package that is not loaded', () => {
    it('should pass in strict mode', () => {
      const texts = [
        llm(
          'hr',
          '{ c = "Candidate", n = "legal.Note", d = "native.Document[]", x = "scoring->scoring.Score" }',
          'Note[3]',
        ),
        HR,
        LEGAL,
      ];
      expect(runRule(pipeConceptRefs, texts, 'strict')).to.deep.equal([]);
    });
  });
});
