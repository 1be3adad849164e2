import { expect } from 'chai';
import { checkBlueprint } from '../../../../shared/mthds/parse/check-blueprint.js';
import { parseToml } from '../../../../shared/mthds/parse/parse-toml.js';

const check = (text: string) => checkBlueprint(parseToml(text, 'b.mthds'), 'b.mthds');
const PIPE_TYPES =
  'PipeLLM, PipeFunc, PipeImgGen, PipeExtract, PipeSearch, PipeStructure, PipeJudge, PipeDocGen, PipeCompose, PipeSequence, PipeParallel, PipeCondition, PipeBatch';

describe('checkBlueprint', () => {
  describe('when the data is empty', () => {
    it('should give the one residual item, without source or error_type', () => {
      expect(check('')).to.deep.equal({
        items: [
          {
            category: 'blueprint_validation',
            message: 'The bundle is empty: a bundle needs at least a header line `domain = "<domain_code>"`.',
          },
        ],
      });
    });
  });

  describe('when a pipe type is unknown', () => {
    it('should report unknown_pipe_type on the type field', () => {
      expect(
        check('domain = "d"\n[pipe.mystery]\ntype = "PipeWizardry"\ndescription = "x"\noutput = "Text"').items,
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: `Pipe 'mystery', field 'type': 'PipeWizardry' is not a pipe type (allowed: ${PIPE_TYPES}).`,
          error_type: 'unknown_pipe_type',
          source: 'b.mthds',
          pipe_code: 'mystery',
          domain_code: 'd',
          field_path: 'pipe.mystery.type',
          field_name: 'type',
        },
      ]);
    });
  });

  describe('when a pipe has no type and keys a signature cannot hold', () => {
    it('should report missing_pipe_type naming the stray keys, without guessing a type', () => {
      expect(
        check('domain = "d"\n[pipe.p]\ndescription = "x"\noutput = "Text"\nprompt = "Hi"\nmodel = "$m"').items,
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: `Pipe 'p' has no 'type': set one of ${PIPE_TYPES}. Without 'type' a pipe is a contract-only signature, which holds only description, inputs, output and signature_for, not 'prompt', 'model'.`,
          error_type: 'missing_pipe_type',
          source: 'b.mthds',
          pipe_code: 'p',
          domain_code: 'd',
          field_path: 'pipe.p.type',
          field_name: 'type',
        },
      ]);
    });
  });

  describe('when a pipe has no type and only the signature keys', () => {
    it('should read a signature, signature_for optional', () => {
      const { blueprint, items } = check(
        'domain = "d"\n[pipe.p]\ndescription = "x"\ninputs = { doc = "Text" }\noutput = "Text"',
      );
      expect(items).to.deep.equal([]);
      expect(blueprint?.pipe['p']).to.deep.equal({
        type: 'PipeSignature',
        description: 'x',
        inputs: { doc: 'Text' },
        output: 'Text',
      });
      expect(
        check('domain = "d"\n[pipe.p]\ndescription = "x"\noutput = "Text"\nsignature_for = "PipeStructure"').items,
      ).to.deep.equal([]);
    });

    it('should still require description and output', () => {
      expect(check('domain = "d"\n[pipe.p]\ndescription = "x"').items).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Pipe 'p' (PipeSignature), field 'output': is required (a string).",
          error_type: 'missing',
          source: 'b.mthds',
          pipe_code: 'p',
          domain_code: 'd',
          field_path: 'pipe.p.output',
          field_name: 'output',
        },
      ]);
    });
  });

  describe('when a pipe is written with the retired type = "PipeSignature"', () => {
    it('should report unknown_pipe_type with the migration message', () => {
      expect(
        check(
          'domain = "d"\n[pipe.p]\ntype = "PipeSignature"\ndescription = "x"\noutput = "Text"\nsignature_for = "PipeLLM"',
        ).items,
      ).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'p', field 'type': 'PipeSignature' is no longer a pipe type. Delete the `type` line: a pipe table without `type` holding only description, inputs, output and signature_for is a contract-only signature.",
          error_type: 'unknown_pipe_type',
          source: 'b.mthds',
          pipe_code: 'p',
          domain_code: 'd',
          field_path: 'pipe.p.type',
          field_name: 'type',
        },
      ]);
    });
  });

  describe('when a table has an unknown key', () => {
    it('should name the key and the keys allowed in a pipe', () => {
      const { items } = check(
        'domain = "d"\n[pipe.p]\ntype = "PipeFunc"\ndescription = "x"\noutput = "Text"\nfunction_name = "f"\ntemplate_name = "t"',
      );
      expect(items).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Pipe 'p' (PipeFunc): unknown key 'template_name' (allowed: type, description, inputs, output, function_name).",
          error_type: 'extra_forbidden',
          source: 'b.mthds',
          pipe_code: 'p',
          domain_code: 'd',
          field_path: 'pipe.p.template_name',
          field_name: 'template_name',
        },
      ]);
    });

    it('should name the keys allowed in a sequence step', () => {
      const { items } = check(
        'domain = "d"\n[pipe.s]\ntype = "PipeSequence"\ndescription = "x"\noutput = "Text"\nsteps = [{ pipe = "a", output_name = "b" }]',
      );
      expect(items.map((item) => [item.message, item.field_path])).to.deep.equal([
        [
          "Pipe 's' (PipeSequence): unknown key 'output_name' (allowed: pipe, result, nb_output, multiple_output, batch_over, batch_as).",
          'pipe.s.steps[0].output_name',
        ],
      ]);
    });

    it('should refuse an unknown top-level key', () => {
      expect(check('domain = "d"\nversion = "1"').items).to.deep.equal([
        {
          category: 'blueprint_validation',
          message:
            "Bundle header: unknown key 'version' (allowed: domain, description, system_prompt, main_pipe, concept, pipe).",
          error_type: 'extra_forbidden',
          source: 'b.mthds',
          field_path: 'version',
          field_name: 'version',
        },
      ]);
    });

    it('should refuse an unknown key in a structure field', () => {
      const { items } = check(
        'domain = "d"\n[concept.Invoice]\ndescription = "x"\n[concept.Invoice.structure]\ntotal = { type = "number", description = "t", unit = "EUR" }',
      );
      expect(items.map((item) => [item.message, item.concept_code, item.field_path])).to.deep.equal([
        [
          "Concept 'Invoice': unknown key 'unit' (allowed: description, type, key_type, value_type, item_type, concept_ref, item_concept_ref, choices, default_value, required, hints).",
          'Invoice',
          'concept.Invoice.structure.total.unit',
        ],
      ]);
    });
  });

  describe('when a concept uses what the reference refuses (docs/concepts.md#declaring-a-concept: non-string choices, a refines list)', () => {
    it('should refuse each with its location', () => {
      const { items } = check(
        [
          'domain = "d"',
          '[concept.Level]\ndescription = "x"\n[concept.Level.structure]\nrank = { description = "r", choices = [1, 2, 3] }',
          '[concept.Memo]\ndescription = "m"\nrefines = ["Text", "Html"]',
        ].join('\n'),
      );
      expect(items.map((item) => [item.error_type, item.concept_code, item.field_path])).to.deep.equal([
        ['invalid_type', 'Level', 'concept.Level.structure.rank.choices[0]'],
        ['invalid_type', 'Level', 'concept.Level.structure.rank.choices[1]'],
        ['invalid_type', 'Level', 'concept.Level.structure.rank.choices[2]'],
        ['invalid_type', 'Memo', 'concept.Memo.refines'],
      ]);
    });
  });

  describe('when a field is missing, mistyped or out of its enum', () => {
    it('should report missing for a required field', () => {
      expect(check('description = "no domain"').items).to.deep.equal([
        {
          category: 'blueprint_validation',
          message: "Bundle header, field 'domain': is required (a string).",
          error_type: 'missing',
          source: 'b.mthds',
          field_path: 'domain',
          field_name: 'domain',
        },
      ]);
    });

    it('should report invalid_type with the offending value', () => {
      const { items } = check(
        'domain = "d"\n[pipe.p]\ntype = "PipeSequence"\ndescription = "x"\noutput = "Text"\nsteps = "first"',
      );
      expect(items.map((item) => [item.message, item.error_type])).to.deep.equal([
        ["Pipe 'p' (PipeSequence), field 'steps': expected an array, got \"first\".", 'invalid_type'],
      ]);
    });

    it('should report enum with the allowed values', () => {
      const { items } = check(
        'domain = "d"\n[pipe.p]\ntype = "PipeImgGen"\ndescription = "x"\noutput = "Image"\nprompt = "a cat"\naspect_ratio = "16:9"',
      );
      expect(items[0]).to.include({
        error_type: 'enum',
        field_path: 'pipe.p.aspect_ratio',
        field_name: 'aspect_ratio',
      });
      expect(items[0]?.message).to.equal(
        "Pipe 'p' (PipeImgGen), field 'aspect_ratio': \"16:9\" is not allowed (allowed: square, landscape_4_3, landscape_3_2, landscape_16_9, landscape_21_9, portrait_3_4, portrait_2_3, portrait_9_16, portrait_9_21).",
      );
    });

    it('should describe the closest form of a union (an inline model table)', () => {
      const { items } = check(
        'domain = "d"\n[pipe.p]\ntype = "PipeLLM"\ndescription = "x"\noutput = "Text"\nmodel = { model = "m", temperature = 3 }',
      );
      expect(items.map((item) => [item.message, item.error_type, item.field_path])).to.deep.equal([
        [
          "Pipe 'p' (PipeLLM), field 'model.temperature': 3 is too big (at most 1).",
          'value_error',
          'pipe.p.model.temperature',
        ],
      ]);
    });
  });

  describe('when the bundle is well-formed', () => {
    it('should return the blueprint and no item', () => {
      expect(
        check(
          'domain = "d"\nmain_pipe = "p"\n[pipe.p]\ntype = "PipeFunc"\ndescription = "x"\noutput = "Text"\nfunction_name = "f"',
        ),
      ).to.deep.equal({
        blueprint: {
          domain: 'd',
          main_pipe: 'p',
          concept: {},
          pipe: { p: { type: 'PipeFunc', description: 'x', output: 'Text', function_name: 'f' } },
        },
        items: [],
      });
    });
  });
});
