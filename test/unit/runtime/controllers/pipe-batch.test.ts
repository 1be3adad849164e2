/**
 * PipeBatch through the runtime API (docs/runtime.md#pipebatch, docs/data-flow.md#batching): the concurrency bound,
 * input order, empty
 * and one-item lists, one memory copy per item, one-level flattening of list outputs, branch failures.
 */
import { expect } from 'chai';
import { controllersLibrary } from '../../../helpers/controllers-bundle.js';
import {
  describeOnBothPaths,
  memoryView,
  type RecordingPort,
  recordingPort,
  runFailure,
  runPipe,
  text,
  texts,
} from '../../../helpers/runtime-run.js';

/** Let pending promise callbacks and immediates run: `turns` turns of the event loop. */
async function turns(count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Run turns of the event loop until `condition` holds (at most 1000). */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let index = 0; index < 1000 && !condition(); index += 1) await turns(1);
  if (!condition()) throw new Error(`never reached: ${what}`);
}

/** A port whose text calls wait until the test answers them; each answer echoes the prompt. */
function gatedPort(): { port: RecordingPort; waiting: { prompt: string; answer: () => void }[] } {
  const waiting: { prompt: string; answer: () => void }[] = [];
  const port = recordingPort({
    text: (request) =>
      new Promise<string>((resolve) => {
        waiting.push({ prompt: request.userPrompt, answer: () => resolve(`echo ${request.userPrompt}`) });
      }),
  });
  return { port, waiting };
}

/**
 * Answer the latest waiting call first until none is left, so later items finish before earlier ones; after each
 * answer, check the port never has more than `bound` calls in flight.
 */
async function answerNewestFirst(gate: ReturnType<typeof gatedPort>, bound: number): Promise<void> {
  while (gate.waiting.length > 0) {
    gate.waiting.pop()!.answer();
    await turns(10);
    expect(gate.port.inFlight).to.be.at.most(bound);
  }
}

describeOnBothPaths('PipeBatch', () => {
  const library = controllersLibrary();
  const words = Array.from({ length: 12 }, (_, index) => `w${index}`);

  it('should keep input order with more items than the concurrency bound, running at most 8 at once', async () => {
    const gate = gatedPort();
    const run = runPipe(library, 'batch_echo', { words }, { inference: gate.port });
    await until(() => gate.waiting.length >= 8, '8 calls in flight');
    await turns(20);
    expect(gate.port.calls.map((call) => call.request.userPrompt)).to.deep.equal(words.slice(0, 8));
    expect(gate.port.inFlight).to.equal(8);
    await answerNewestFirst(gate, 8);
    const outcome = await run;
    expect(gate.port.calls).to.have.length(12);
    expect(gate.port.maxInFlight).to.equal(8);
    expect(memoryView(outcome.memory)).to.deep.equal({
      main: 'main_stuff',
      aliases: {},
      root: {
        words: { name: 'words', concept: 'native.Text', content: texts(...words), code: 's1' },
        main_stuff: {
          name: 'text',
          concept: 'native.Text',
          content: texts(...words.map((word) => `echo ${word}`)),
          code: 's14',
        },
      },
    });
    expect(outcome.inferenceCalls.map((call) => call.pipeCode)).to.deep.equal(Array(12).fill('echo'));
  });

  it('should run at most batchConcurrency branches at once when the host sets it', async () => {
    const gate = gatedPort();
    const run = runPipe(library, 'batch_echo', { words }, { inference: gate.port, batchConcurrency: 3 });
    await until(() => gate.waiting.length >= 3, '3 calls in flight');
    await turns(20);
    expect(gate.port.inFlight).to.equal(3);
    await answerNewestFirst(gate, 3);
    const outcome = await run;
    expect(gate.port.maxInFlight).to.equal(3);
    expect(memoryView(outcome.memory).root['main_stuff']!.content).to.deep.equal(
      texts(...words.map((word) => `echo ${word}`)),
    );
  });

  it('should give an empty list for an empty list, inline and as a PipeBatch', async () => {
    const port = recordingPort({ object: () => ({ items: [] }) });
    const outcome = await runPipe(library, 'empty_batches', { topic: 'nothing' }, { inference: port });
    expect(port.calls.map((call) => [call.kind, call.request.pipeCode])).to.deep.equal([['object', 'list_words']]);
    expect(memoryView(outcome.memory)).to.deep.equal({
      main: 'counts',
      aliases: { main_stuff: 'counts' },
      root: {
        topic: { name: 'topic', concept: 'native.Text', content: text('nothing'), code: 's1' },
        words: { name: 'words', concept: 'native.Text', content: { items: [] }, code: 's2' },
        inline_wrapped: { name: 'inline_wrapped', concept: 'native.Text', content: { items: [] }, code: 's3' },
        batch_wrapped: { name: 'batch_wrapped', concept: 'native.Text', content: { items: [] }, code: 's4' },
        counts: { name: 'counts', concept: 'native.Text', content: text('0+0'), code: 's5' },
      },
    });
  });

  it('should give a list of one for a list of one', async () => {
    const view = memoryView((await runPipe(library, 'batch_wrap', { words: ['only'] })).memory);
    expect(view.root['main_stuff']).to.deep.equal({
      name: 'text',
      concept: 'native.Text',
      content: texts('[only]'),
      code: 's3',
    });
  });

  it('should give each item its own copy of the memory', async () => {
    const view = memoryView(
      (await runPipe(library, 'batch_scratch', { words: ['a', 'b', 'c'], scratch: 'parent' })).memory,
    );
    expect(Object.keys(view.root)).to.deep.equal(['words', 'scratch', 'main_stuff']);
    expect(view.root['scratch']).to.deep.equal({
      name: 'scratch',
      concept: 'native.Text',
      content: text('parent'),
      code: 's2',
    });
    expect(view.root['main_stuff']!.content).to.deep.equal(texts('a:[a]', 'b:[b]', 'c:[c]'));
  });

  it('should flatten list outputs of the branches one level, in order', async () => {
    const view = memoryView(
      (await runPipe(library, 'batch_nested', { words: ['a', 'b'], suffixes: ['1', '2'] })).memory,
    );
    expect(view.root['main_stuff']).to.deep.include({
      name: 'text',
      concept: 'native.Text',
      content: texts('a1', 'a2', 'b1', 'b2'),
    });
  });

  it('should fail the batch with the error of a failing branch', async () => {
    const failure = new Error('w1 failed');
    const port = recordingPort({
      text: (request) => (request.userPrompt === 'w1' ? Promise.reject(failure) : `echo ${request.userPrompt}`),
    });
    expect(
      await runFailure(runPipe(library, 'batch_echo', { words: ['w0', 'w1', 'w2'] }, { inference: port })),
    ).to.equal(failure);
  });
});
