/**
 * PipeFunc through the runtime API (docs/runtime.md#newer-operators): registered functions only, their result validated
 * against the
 * output concept.
 */
import { expect } from 'chai';
import { PipeFeatureNotSupportedError, PipeOutputValidationError } from '../../../../shared/errors/index.js';
import type { PipeFunction } from '../../../../shared/runtime/index.js';
import { libraryOf } from '../../../helpers/library.js';
import { memoryView, runFailure, runPipe, text } from '../../../helpers/runtime-run.js';

const BUNDLE =
  'domain = "funcs"\n[pipe.shout]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { words = "Text" }\noutput = "Text"\nfunction_name = "text.shout"\n';

function run(functions: Map<string, PipeFunction>) {
  return runPipe(libraryOf(BUNDLE), 'shout', { words: 'hello' }, { functions });
}

describe('PipeFunc', () => {
  it('should call a registered function with the contents and store its result', async () => {
    const received: Readonly<Record<string, unknown>>[] = [];
    const shout: PipeFunction = async (contents) => {
      received.push(contents);
      return String((contents['words'] as { text: string }).text).toUpperCase();
    };
    const outcome = await run(new Map([['text.shout', shout]]));
    expect(received).to.deep.equal([{ words: text('hello') }]);
    expect(memoryView(outcome.memory)).to.deep.equal({
      main: 'main_stuff',
      aliases: {},
      root: {
        words: { name: 'words', concept: 'native.Text', content: text('hello'), code: 's1' },
        main_stuff: { name: 'text', concept: 'native.Text', content: text('HELLO'), code: 's2' },
      },
    });
  });

  it('should refuse an unregistered function, naming the registered ones', async () => {
    const error = await runFailure(run(new Map([['other', async () => 'x']])));
    expect(error).to.be.instanceOf(PipeFeatureNotSupportedError);
    expect(error.message).to.equal(
      "PipeFunc 'shout': function 'text.shout' is not registered in this runtime (registered: other); functions are never loaded from bundles.",
    );
  });

  it('should validate the result against the output concept', async () => {
    const error = await runFailure(run(new Map([['text.shout', async () => ({ wrong: 1 })]])));
    expect(error).to.be.instanceOf(PipeOutputValidationError);
    expect(error.message).to.equal(
      "PipeFunc 'shout': the result of text.shout does not match native.Text: (root) must have required property 'text'.",
    );
  });
});
