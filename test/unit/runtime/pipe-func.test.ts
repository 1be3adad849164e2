import { expect } from 'chai';
import { PipeFeatureNotSupportedError, PipeOutputValidationError } from '../../../shared/errors/index.js';
import { createMockBackend } from '../../../shared/inference/index.js';
import { type PipeFunction, randomIdSource, runPipeline } from '../../../shared/runtime/index.js';
import { validLibrary } from '../../helpers/library.js';

const BUNDLE =
  'domain = "funcs"\n[pipe.shout]\ntype = "PipeFunc"\ndescription = "d"\ninputs = { words = "Text" }\noutput = "Text"\nfunction_name = "text.shout"\n';

async function run(functions: Map<string, PipeFunction>) {
  const library = validLibrary([{ content: BUNDLE, source: null }]);
  const pipe = library.resolvePipe('shout');
  return runPipeline(
    { library, pipe, inputs: { words: 'hello' }, pipelineRunId: 'r' },
    { inference: createMockBackend(), ids: randomIdSource(), now: Date.now, functions },
  );
}

describe('PipeFunc', () => {
  it('should call a registered function with the contents and store its result', async () => {
    const shout: PipeFunction = async (contents) => String((contents['words'] as { text: string }).text).toUpperCase();
    const outcome = await run(new Map([['text.shout', shout]]));
    expect(outcome.memory.toWire().root['main_stuff']!.content).to.deep.equal({ text: 'HELLO' });
  });

  it('should refuse an unregistered function, naming the registered ones', async () => {
    try {
      await run(new Map([['other', async () => 'x']]));
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).to.be.instanceOf(PipeFeatureNotSupportedError);
      expect((error as Error).message)
        .to.include("'text.shout' is not registered")
        .and.include('registered: other');
    }
  });

  it('should validate the result against the output concept', async () => {
    try {
      await run(new Map([['text.shout', async () => ({ wrong: 1 })]]));
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).to.be.instanceOf(PipeOutputValidationError);
    }
  });
});
