import { expect } from 'chai';
import { parseBundle } from '../../../shared/mthds/index.js';
import { bundleBlueprintForWire } from '../../../shared/wire/bundle-blueprint.js';
import { sample } from '../../helpers/corpus.js';

describe('bundleBlueprintForWire', () => {
  describe('when the header leaves members out', () => {
    it('should give them as null, with the source first', () => {
      const blueprint = parseBundle(sample('invalid/missing_main_pipe'), 'missing_main_pipe.mthds');
      expect(bundleBlueprintForWire({ blueprint, source: 'missing_main_pipe.mthds' })).to.deep.equal({
        source: 'missing_main_pipe.mthds',
        domain: 'missing_main_pipe',
        description: 'Declares a pipe but no main_pipe',
        system_prompt: null,
        main_pipe: null,
        concept: { Greeting: { description: 'A greeting', refines: 'Text' } },
        pipe: {
          greet: {
            type: 'PipeLLM',
            description: 'Say hello to the given name',
            inputs: { name: 'Text' },
            output: 'Greeting',
            prompt: 'Say hello to $name',
          },
        },
      });
    });
  });

  describe('when the source is unknown', () => {
    it('should give source null', () => {
      const blueprint = parseBundle(sample('hello_greeting'), null);
      expect(Object.keys(bundleBlueprintForWire({ blueprint, source: null }))).to.deep.equal([
        'source',
        'domain',
        'description',
        'system_prompt',
        'main_pipe',
        'concept',
        'pipe',
      ]);
      expect(bundleBlueprintForWire({ blueprint, source: null })['source']).to.equal(null);
    });
  });

  describe('when a pipe is contract-only', () => {
    it('should write it as written, without the type the parser gives it', () => {
      const blueprint = parseBundle(sample('draft_with_signature'), null);
      expect(blueprint.pipe['translate_summary']?.type).to.equal('PipeSignature');
      const wire = bundleBlueprintForWire({ blueprint, source: null });
      expect((wire['pipe'] as Record<string, unknown>)['translate_summary']).to.deep.equal({
        description: 'Translate the summary to French (contract only — not yet implemented)',
        inputs: { summary: 'Summary' },
        output: 'Summary',
        signature_for: 'PipeLLM',
      });
    });
  });
});
