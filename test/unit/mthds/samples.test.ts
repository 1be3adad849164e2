import { expect } from 'chai';
import { type LibraryLoadResult, loadLibrary } from '../../../shared/mthds/index.js';
import { sample } from '../../helpers/corpus.js';

const load = (name: string): LibraryLoadResult => loadLibrary([{ content: sample(name), source: `${name}.mthds` }]);

function errorsOf(result: LibraryLoadResult): unknown[] {
  if (result.ok) throw new Error('expected an invalid verdict');
  return result.errors;
}

describe('sample bundles (docs/conformance.md#sample-bundles verdicts)', () => {
  for (const name of [
    'hello_greeting',
    'cv_job_match',
    'fashion_moodboard',
    'draft_with_signature',
    'invalid/missing_main_pipe',
  ]) {
    describe(`when loading ${name}`, () => {
      it('should be valid with no warning', () => {
        const result = load(name);
        expect(result.ok ? { ok: true, warnings: result.warnings } : result).to.deep.equal({ ok: true, warnings: [] });
      });
    });
  }

  describe('when loading batch_candidate_screening', () => {
    it('should be valid, warning about the Page[] fed to Page inputs (docs/data-flow.md#binding-inputs leniency)', () => {
      const result = load('batch_candidate_screening');
      if (!result.ok) throw new Error(result.message);
      expect(result.warnings).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'prepare_job_offer', steps[1]: input 'job_offer_pages' expects 'Page', but 'job_offer_pages' (from step 'extract_one_job_offer') holds 'Page[]' (a different number of items).",
          error_type: 'input_stuff_spec_mismatch',
          source: 'batch_candidate_screening.mthds',
          pipe_code: 'prepare_job_offer',
          domain_code: 'batch_candidate_screening',
          field_path: 'pipe.prepare_job_offer.steps[1].pipe',
          field_name: 'pipe',
        },
        {
          category: 'pipe_validation',
          message:
            "Pipe 'process_cv', steps[1]: input 'cv_pages' expects 'Page', but 'cv_pages' (from step 'extract_one_cv') holds 'Page[]' (a different number of items).",
          error_type: 'input_stuff_spec_mismatch',
          source: 'batch_candidate_screening.mthds',
          pipe_code: 'process_cv',
          domain_code: 'batch_candidate_screening',
          field_path: 'pipe.process_cv.steps[1].pipe',
          field_name: 'pipe',
        },
      ]);
    });

    it('should be invalid in strict mode for the same reason', () => {
      const result = loadLibrary([{ content: sample('batch_candidate_screening'), source: 'b.mthds' }], {
        mode: 'strict',
      });
      expect(result.ok ? [] : result.errors.map((item) => [item.pipe_code, item.error_type])).to.deep.equal([
        ['prepare_job_offer', 'input_stuff_spec_mismatch'],
        ['process_cv', 'input_stuff_spec_mismatch'],
      ]);
    });
  });

  describe('when loading draft_with_signature', () => {
    it('should hold the signature as a PipeSignature', () => {
      const result = load('draft_with_signature');
      if (!result.ok) throw new Error(result.message);
      expect(result.library.resolvePipe('draft_with_signature.translate_summary').type).to.equal('PipeSignature');
      expect(result.library.mainPipe()?.ref).to.equal('draft_with_signature.summarize_then_translate');
    });
  });

  describe('when loading invalid/missing_main_pipe', () => {
    it('should have no main pipe', () => {
      const result = load('invalid/missing_main_pipe');
      if (!result.ok) throw new Error(result.message);
      expect(result.library.mainPipe()).to.equal(undefined);
    });
  });

  describe('when loading invalid/syntax_error', () => {
    it('should give one residual blueprint_validation item with the TOML message', () => {
      const result = load('invalid/syntax_error');
      expect(result).to.deep.equal({
        ok: false,
        errors: [
          {
            category: 'blueprint_validation',
            message:
              'TOML syntax error (invalid/syntax_error.mthds, line 1, column 6): Invalid TOML document: illegal character in key',
          },
        ],
        message:
          'Validation error(s): TOML syntax error (invalid/syntax_error.mthds, line 1, column 6): Invalid TOML document: illegal character in key',
      });
    });
  });

  describe('when loading invalid/missing_pipe_ref', () => {
    it('should report the unresolved step pipe', () => {
      expect(errorsOf(load('invalid/missing_pipe_ref'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message: "Pipe 'do_two_steps', field 'steps[1].pipe': pipe 'second_step_missing' is not defined.",
          error_type: 'unresolved_pipe_dependency',
          source: 'invalid/missing_pipe_ref.mthds',
          pipe_code: 'do_two_steps',
          domain_code: 'missing_pipe_ref',
          field_path: 'pipe.do_two_steps.steps[1].pipe',
          field_name: 'pipe',
          missing_pipe_code: 'second_step_missing',
        },
      ]);
    });
  });

  describe('when loading invalid/unknown_concept', () => {
    it('should report the unresolved output concept', () => {
      expect(errorsOf(load('invalid/unknown_concept'))).to.deep.equal([
        {
          category: 'pipe_validation',
          message:
            "Pipe 'make_thing', field 'output': concept 'NonExistentConcept' is neither native nor declared by a loaded bundle.",
          error_type: 'unresolved_concept',
          source: 'invalid/unknown_concept.mthds',
          pipe_code: 'make_thing',
          domain_code: 'unknown_concept',
          field_path: 'pipe.make_thing.output',
          field_name: 'output',
          missing_concept_code: 'NonExistentConcept',
          declared_concepts: [],
        },
      ]);
    });
  });

  describe('when loading invalid/prompt_input_mismatch', () => {
    it('should report the undeclared prompt variable', () => {
      expect(errorsOf(load('invalid/prompt_input_mismatch'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'greet_person': the prompt uses 'city', which is not a declared input (declared: name). Add it to inputs or remove it from the prompt.",
          error_type: 'missing_input_variable',
          source: 'invalid/prompt_input_mismatch.mthds',
          pipe_code: 'greet_person',
          domain_code: 'prompt_input_mismatch',
          field_path: 'pipe.greet_person.prompt',
          field_name: 'prompt',
          variable_names: ['city'],
        },
      ]);
    });
  });

  describe('when loading invalid/bad_pipe_type', () => {
    it('should report unknown_pipe_type on the type field (the corpus README predates the 0.16 name)', () => {
      expect(errorsOf(load('invalid/bad_pipe_type'))).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'mystery', field 'type': 'PipeWizardry' is not a pipe type (allowed: PipeLLM, PipeFunc, PipeImgGen, PipeExtract, PipeSearch, PipeStructure, PipeJudge, PipeDocGen, PipeCompose, PipeSequence, PipeParallel, PipeCondition, PipeBatch).",
          error_type: 'unknown_pipe_type',
          source: 'invalid/bad_pipe_type.mthds',
          pipe_code: 'mystery',
          domain_code: 'bad_pipe_type',
          field_path: 'pipe.mystery.type',
          field_name: 'type',
        },
      ]);
    });
  });
});
