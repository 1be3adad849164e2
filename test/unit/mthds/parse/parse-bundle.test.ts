import { expect } from 'chai';
import { MthdsParserError } from '../../../../shared/errors/index.js';
import { parseBundle } from '../../../../shared/mthds/index.js';
import { corpusText, sample } from '../../../helpers/corpus.js';

describe('parseBundle', () => {
  describe('when the bundle is well-formed', () => {
    it('should type the header, the concepts in both forms and the pipes as written', () => {
      const text = [
        'domain = "greetings"',
        'description = "Greeting tools"',
        'main_pipe = "greet"',
        '[concept]',
        'Salutation = "A way to greet"',
        '[concept.Greeting]',
        'description = "A greeting"',
        'refines = "Text"',
        '[pipe.greet]',
        'type = "PipeLLM"',
        'description = "Greet someone"',
        'inputs = { name = "Text" }',
        'output = "Greeting"',
        'prompt = "Greet $name"',
        'model = { model = "gpt-4o", temperature = 0.2 }',
      ].join('\n');
      expect(parseBundle(text, 'greetings.mthds')).to.deep.equal({
        domain: 'greetings',
        description: 'Greeting tools',
        main_pipe: 'greet',
        concept: { Salutation: 'A way to greet', Greeting: { description: 'A greeting', refines: 'Text' } },
        pipe: {
          greet: {
            type: 'PipeLLM',
            description: 'Greet someone',
            inputs: { name: 'Text' },
            output: 'Greeting',
            prompt: 'Greet $name',
            model: { model: 'gpt-4o', temperature: 0.2 },
          },
        },
      });
    });

    it('should read a table with signature_for and no type as a PipeSignature', () => {
      const blueprint = parseBundle(sample('draft_with_signature'), 'draft_with_signature.mthds');
      expect(blueprint.pipe['translate_summary']).to.deep.equal({
        type: 'PipeSignature',
        description: 'Translate the summary to French (contract only — not yet implemented)',
        inputs: { summary: 'Summary' },
        output: 'Summary',
        signature_for: 'PipeLLM',
      });
    });

    it('should keep the literal string "None" of a header system_prompt', () => {
      expect(parseBundle(sample('batch_candidate_screening'), null).system_prompt).to.equal('None');
    });

    it('should parse every published method', () => {
      const files = [
        'cv_analyzer/cv_analyzer.mthds',
        'documents/documents.mthds',
        'doc_summarizer/bundle.mthds',
        'report_writer/bundle.mthds',
      ];
      expect(files.map((file) => parseBundle(corpusText(`methods/${file}`), file).domain)).to.deep.equal([
        'candidate_screening',
        'documents',
        'document_summarization',
        'report_writing',
      ]);
    });
  });

  describe('when the text is not a bundle', () => {
    it('should throw MthdsParserError with the position of a TOML error', () => {
      expect(() => parseBundle(sample('invalid/syntax_error'), 'syntax_error.mthds'))
        .to.throw(MthdsParserError, 'TOML syntax error (syntax_error.mthds, line 1, column 6)')
        .with.property('position')
        .that.deep.equals({ source: 'syntax_error.mthds', line: 1, column: 6 });
    });

    it('should throw MthdsParserError listing the schema problems', () => {
      expect(() => parseBundle(sample('invalid/bad_pipe_type'), 'bad.mthds')).to.throw(
        MthdsParserError,
        "Invalid bundle bad.mthds: Pipe 'mystery', field 'type': 'PipeWizardry' is not a pipe type",
      );
    });

    it('should refuse an empty text', () => {
      expect(() => parseBundle('', null)).to.throw(MthdsParserError, 'Invalid bundle: The bundle is empty');
    });
  });
});
