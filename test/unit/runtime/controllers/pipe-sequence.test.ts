/**
 * PipeSequence through the runtime API (docs/runtime.md#pipesequence, docs/runtime.md#controllers, docs/runtime.md):
 * step results, publication of the
 * output under the step / request output name, step `nb_output`, inline batch steps and nested sequences.
 */
import { expect } from 'chai';
import { controllersLibrary } from '../../../helpers/controllers-bundle.js';
import {
  CLOCK_START,
  CLOCK_STEP,
  clockIso,
  describeOnBothPaths,
  memoryView,
  RECORDING_USAGE,
  recordingPort,
  runPipe,
  text,
  texts,
} from '../../../helpers/runtime-run.js';

describeOnBothPaths('PipeSequence', () => {
  const library = controllersLibrary();

  it('should name each step result, let a later step read an earlier one, and output the last step (a refinement of the declared concept)', async () => {
    const outcome = await runPipe(library, 'seq', { word: 'hi' });
    expect(memoryView(outcome.memory)).to.deep.equal({
      main: 'shouted',
      aliases: { main_stuff: 'shouted' },
      root: {
        word: { name: 'word', concept: 'native.Text', content: text('hi'), code: 's1' },
        wrapped: { name: 'wrapped', concept: 'native.Text', content: text('[hi]'), code: 's2' },
        shouted: { name: 'shouted', concept: 'ctl.Shout', content: text('[HI]!'), code: 's3' },
      },
    });
  });

  it('should time the run with the clock and record no token usage when no step calls a model', async () => {
    const outcome = await runPipe(library, 'seq', { word: 'hi' });
    expect(outcome.pipelineRunId).to.equal('run-1');
    expect(outcome.createdAt).to.equal(CLOCK_START);
    expect(outcome.finishedAt).to.equal(CLOCK_START + CLOCK_STEP);
    expect(outcome.inferenceCalls).to.deep.equal([]);
  });

  it('should also publish the output under the request output_name (same stuff)', async () => {
    const view = memoryView((await runPipe(library, 'seq', { word: 'hi' }, { outputName: 'final' })).memory);
    expect(view.main).to.equal('final');
    expect(view.aliases).to.deep.equal({ main_stuff: 'final' });
    expect(Object.keys(view.root)).to.deep.equal(['word', 'wrapped', 'shouted', 'final']);
    expect(view.root['final']).to.deep.equal({
      name: 'shouted',
      concept: 'ctl.Shout',
      content: text('[HI]!'),
      code: 's3',
    });
    expect(view.root['shouted']!.code).to.equal('s3');
  });

  it('should not pass the request output_multiplicity down to its steps (docs/runtime.md: consumed by the pipe it targets)', async () => {
    const port = recordingPort({ text: (request) => `echo ${request.userPrompt}` });
    const outcome = await runPipe(library, 'echo_seq', { word: 'hi' }, { inference: port, outputMultiplicity: 3 });
    expect(port.calls.map((call) => call.kind)).to.deep.equal(['text']);
    expect(memoryView(outcome.memory).root['echoed']).to.deep.equal({
      name: 'echoed',
      concept: 'native.Text',
      content: text('echo hi'),
      code: 's2',
    });
    const composed = await runPipe(library, 'seq', { word: 'hi' }, { outputMultiplicity: 3 });
    expect(memoryView(composed.memory).main).to.equal('shouted');
    expect(memoryView(composed.memory).root['shouted']!.content).to.deep.equal(text('[HI]!'));
  });

  it('should apply a step nb_output to that step pipe', async () => {
    const port = recordingPort({ object: () => texts('a', 'b', 'c') });
    const outcome = await runPipe(library, 'draft_three', { topic: 'x' }, { inference: port });
    expect(port.calls).to.have.length(1);
    const call = port.calls[0]!;
    expect(call.kind).to.equal('object');
    if (call.kind !== 'object') return;
    expect(call.request.pipeCode).to.equal('list_words');
    expect(call.request.userPrompt).to.equal('Words about x');
    expect(call.request.schemaName).to.equal('ListOfText');
    const listSchema = (call.request.jsonSchema['properties'] as Record<string, Record<string, unknown>>)['items'];
    expect(listSchema).to.include({ type: 'array', minItems: 3, maxItems: 3 });
    expect(call.request.validate(texts('a', 'b'))).to.deep.equal(['/items must hold exactly 3 items, not 2']);
    expect(memoryView(outcome.memory)).to.deep.equal({
      main: 'words',
      aliases: { main_stuff: 'words' },
      root: {
        topic: { name: 'topic', concept: 'native.Text', content: text('x'), code: 's1' },
        words: { name: 'words', concept: 'native.Text', content: texts('a', 'b', 'c'), code: 's2' },
      },
    });
    expect(outcome.inferenceCalls).to.deep.equal([
      {
        modelType: 'llm',
        modelName: RECORDING_USAGE.model,
        modelId: RECORDING_USAGE.model,
        pipeCode: 'list_words',
        jobCategory: 'llm_job',
        inputTokens: 1,
        outputTokens: 1,
        costUsd: null,
        backend: 'recording',
        startedAt: Date.parse(clockIso(1)),
        completedAt: Date.parse(clockIso(2)),
      },
    ]);
    expect(outcome.finishedAt).to.equal(CLOCK_START + 3 * CLOCK_STEP);
  });

  it('should run an inline batch_over / batch_as step into a list under its result', async () => {
    const outcome = await runPipe(library, 'wrap_all', { words: ['a', 'b', 'c'] });
    expect(memoryView(outcome.memory)).to.deep.equal({
      main: 'joined',
      aliases: { main_stuff: 'joined' },
      root: {
        words: { name: 'words', concept: 'native.Text', content: texts('a', 'b', 'c'), code: 's1' },
        wrapped_words: {
          name: 'wrapped_words',
          concept: 'native.Text',
          content: texts('[a]', '[b]', '[c]'),
          code: 's5',
        },
        joined: { name: 'joined', concept: 'native.Text', content: text('[a],[b],[c]'), code: 's6' },
      },
    });
  });

  it('should publish a nested sequence output under the outer step result, for the next step to read', async () => {
    const view = memoryView((await runPipe(library, 'outer', { word: 'hi' })).memory);
    expect(view.main).to.equal('quoted');
    expect(view.aliases).to.deep.equal({ main_stuff: 'quoted' });
    expect(Object.keys(view.root)).to.deep.equal(['word', 'wrapped', 'shouted', 'inner', 'quoted']);
    expect(view.root['inner']).to.deep.equal({
      name: 'shouted',
      concept: 'ctl.Shout',
      content: text('[HI]!'),
      code: 's3',
    });
    expect(view.root['quoted']).to.deep.equal({
      name: 'quoted',
      concept: 'native.Text',
      content: text('<[HI]!>'),
      code: 's4',
    });
  });
});
