import { expect } from 'chai';
import { ValidationError } from '../../../shared/errors/index.js';
import { parseBundle } from '../../../shared/mthds/index.js';
import { conceptDefinition, pipeDefinition, SPEC_PIPE_TYPES } from '../../../shared/tooling/index.js';

/** The definition pasted into a bundle and parsed back, as `/v1/validate` would read it. */
function reparsed(toml: string) {
  return parseBundle(`domain = "pasted"\n\n${toml}`, 'pasted.mthds');
}

function refusal(run: () => unknown): { type: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(ValidationError);
    return { type: (error as ValidationError).error_type, message: (error as Error).message };
  }
  throw new Error('expected a ValidationError');
}

describe('definition specs', () => {
  describe('conceptDefinition', () => {
    it('should write a structured concept as its table and a structure sub-table', () => {
      const definition = conceptDefinition({
        concept_code: 'Invoice',
        description: 'An invoice',
        structure: {
          total: { type: 'number', description: 'The total', required: true },
          note: 'A "free" note\non two lines',
          status: { type: 'text', description: 'Status', choices: ['open', 'paid'], default_value: 'open' },
        },
      });
      expect(definition).to.deep.equal({
        conceptCode: 'Invoice',
        toml: [
          '[concept.Invoice]',
          'description = "An invoice"',
          '',
          '[concept.Invoice.structure]',
          'total = { description = "The total", type = "number", required = true }',
          'note = "A \\"free\\" note\\non two lines"',
          'status = { description = "Status", type = "text", choices = ["open", "paid"], default_value = "open" }',
          '',
        ].join('\n'),
      });
      expect(reparsed(definition.toml).concept['Invoice']).to.deep.equal({
        description: 'An invoice',
        structure: {
          total: { type: 'number', description: 'The total', required: true },
          note: 'A "free" note\non two lines',
          status: { type: 'text', description: 'Status', choices: ['open', 'paid'], default_value: 'open' },
        },
      });
    });

    it('should write a refining concept on one table, its code taken from an alias', () => {
      expect(
        conceptDefinition({ the_concept_code: 'Summary', refines: 'Text', description: 'A summary' }),
      ).to.deep.equal({
        conceptCode: 'Summary',
        toml: '[concept.Summary]\ndescription = "A summary"\nrefines = "Text"\n',
      });
    });

    it('should take the first alias when the code is absent and drop the others', () => {
      expect(conceptDefinition({ code: 'First', name: 'Second', description: 'd' }).conceptCode).to.equal('First');
      expect(conceptDefinition({ concept_code: 'Kept', name: 'Dropped', description: 'd' }).conceptCode).to.equal(
        'Kept',
      );
    });

    it('should refuse a spec without a code', () => {
      expect(refusal(() => conceptDefinition({ description: 'd' }))).to.deep.equal({
        type: 'ValidationError',
        message: 'Invalid concept spec: it names no concept code; set `concept_code` (a string).',
      });
    });

    it('should refuse a code that is not PascalCase, with the PascalCase spelling', () => {
      expect(refusal(() => conceptDefinition({ concept_code: 'invoice_data', description: 'd' })).message).to.equal(
        "Invalid concept spec: Concept code 'invoice_data' must be PascalCase (a capital letter, then letters and digits), e.g. 'InvoiceData'.",
      );
    });

    it('should refuse members the concept schema does not have', () => {
      expect(refusal(() => conceptDefinition({ concept_code: 'A', description: 'd', fields: {} })).message).to.equal(
        "Invalid concept spec: Concept 'A': unknown key 'fields' (allowed: description, structure, refines, hints).",
      );
    });
  });

  describe('pipeDefinition', () => {
    it('should write a PipeLLM with inline values, reading the aliases agents write', () => {
      const definition = pipeDefinition('PipeLLM', {
        name: 'summarize',
        description: 'Summarize a text',
        inputs: { text: 'Text' },
        output_concept: 'Summary',
        prompt_template: 'Summarize @text',
        model: { model: 'gpt-4o-mini', temperature: 0.2 },
      });
      expect(definition).to.deep.equal({
        pipeCode: 'summarize',
        pipeType: 'PipeLLM',
        toml: [
          '[pipe.summarize]',
          'type = "PipeLLM"',
          'description = "Summarize a text"',
          'inputs = { text = "Text" }',
          'output = "Summary"',
          'model = { model = "gpt-4o-mini", temperature = 0.2 }',
          'prompt = "Summarize @text"',
          '',
        ].join('\n'),
      });
      expect(reparsed(definition.toml).pipe['summarize']).to.deep.include({ type: 'PipeLLM', output: 'Summary' });
    });

    it('should write a sequence with one step per line, steps naming their pipe by an alias', () => {
      const definition = pipeDefinition('PipeSequence', {
        pipe_code: 'chain',
        type: 'PipeLLM',
        description: 'Two steps',
        inputs: { text: 'Text' },
        output: { concept_ref: 'Summary' },
        steps: [
          { pipe_code: 'summarize', result: 'summary' },
          { pipe: 'translate', result: 'translated', batch_over: 'x', batch_as: 'y' },
        ],
      });
      expect(definition.toml).to.equal(
        [
          '[pipe.chain]',
          'type = "PipeSequence"',
          'description = "Two steps"',
          'inputs = { text = "Text" }',
          'output = "Summary"',
          'steps = [',
          '  { pipe = "summarize", result = "summary" },',
          '  { pipe = "translate", result = "translated", batch_over = "x", batch_as = "y" },',
          ']',
          '',
        ].join('\n'),
      );
      expect(reparsed(definition.toml).pipe['chain']).to.deep.include({
        steps: [
          { pipe: 'summarize', result: 'summary' },
          { pipe: 'translate', result: 'translated', batch_over: 'x', batch_as: 'y' },
        ],
      });
    });

    it('should write a condition, quoting keys that are not bare', () => {
      const definition = pipeDefinition('PipeCondition', {
        pipe_code: 'route',
        description: 'Route',
        inputs: { verdict: 'Verdict' },
        output: 'Text',
        jinja2_expression_template: '{{ verdict.level }}',
        outcomes: { high: 'escalate', 'needs review': 'review' },
        default_outcome: 'continue',
      });
      expect(definition.toml).to.include('expression = "{{ verdict.level }}"\n');
      expect(definition.toml).to.include('outcomes = { high = "escalate", "needs review" = "review" }\n');
      expect(reparsed(definition.toml).pipe['route']).to.deep.include({
        outcomes: { high: 'escalate', 'needs review': 'review' },
      });
    });

    it('should write a PipeSignature without type, as a contract-only pipe is written', () => {
      const definition = pipeDefinition('PipeSignature', {
        pipe_code: 'translate',
        description: 'Translate (not yet implemented)',
        inputs: { text: 'Text' },
        output: 'Text',
        signature_for: 'PipeLLM',
      });
      expect(definition.toml).to.equal(
        '[pipe.translate]\ndescription = "Translate (not yet implemented)"\ninputs = { text = "Text" }\noutput = "Text"\nsignature_for = "PipeLLM"\n',
      );
      expect(reparsed(definition.toml).pipe['translate']?.type).to.equal('PipeSignature');
    });

    it('should accept every pipe type of the schema and the signature', () => {
      expect(SPEC_PIPE_TYPES).to.deep.equal([
        'PipeLLM',
        'PipeFunc',
        'PipeImgGen',
        'PipeExtract',
        'PipeSearch',
        'PipeStructure',
        'PipeJudge',
        'PipeDocGen',
        'PipeCompose',
        'PipeSequence',
        'PipeParallel',
        'PipeCondition',
        'PipeBatch',
        'PipeSignature',
      ]);
    });

    it('should refuse an unknown pipe type, naming it and the allowed ones', () => {
      expect(refusal(() => pipeDefinition('PipeWizardry', { pipe_code: 'x' })).message).to.equal(
        `Invalid pipe spec: Invalid pipe type 'PipeWizardry'. Must be one of: ${SPEC_PIPE_TYPES.join(', ')}.`,
      );
    });

    it('should refuse a code that is not snake_case', () => {
      expect(
        refusal(() => pipeDefinition('PipeLLM', { pipe_code: 'Summarize', description: 'd', output: 'Text' })).message,
      ).to.equal(
        "Invalid pipe spec: Pipe code 'Summarize' must be snake_case (lowercase letters, digits and underscores, starting with a letter), e.g. 'summarize'.",
      );
    });

    it('should refuse what the type schema refuses, every problem named', () => {
      expect(
        refusal(() =>
          pipeDefinition('PipeSequence', { pipe_code: 'chain', description: 'd', steps: [{ result: 'x' }] }),
        ).message,
      ).to.equal(
        "Invalid pipe spec: Pipe 'chain' (PipeSequence), field 'output': is required (a string). Pipe 'chain' (PipeSequence), field 'steps[0].pipe': is required (a string).",
      );
    });
  });
});
