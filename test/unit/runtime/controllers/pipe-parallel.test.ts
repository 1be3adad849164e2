/**
 * PipeParallel through the runtime API (docs/runtime.md#pipeparallel): each branch on its own copy of the memory,
 * `add_each_output`, the combined output and `combined_output` validation.
 */
import { expect } from 'chai';
import { PipeOutputValidationError } from '../../../../shared/errors/index.js';
import { CONTROLLERS_BUNDLE, controllersLibrary } from '../../../helpers/controllers-bundle.js';
import { libraryOf } from '../../../helpers/library.js';
import { describeOnBothPaths, memoryView, runFailure, runPipe, text } from '../../../helpers/runtime-run.js';

describeOnBothPaths('PipeParallel', () => {
  const library = controllersLibrary();
  const inputs = { word: 'hi', wrapped: '[pre]' };

  it('should add each branch output under its result and combine them into the declared Anything output', async () => {
    const view = memoryView((await runPipe(library, 'par_each', inputs)).memory);
    expect(view.main).to.equal('main_stuff');
    expect(view.aliases).to.deep.equal({});
    expect(Object.keys(view.root)).to.deep.equal(['word', 'wrapped', 'left', 'right', 'main_stuff']);
    expect(view.root['word']).to.deep.equal({ name: 'word', concept: 'native.Text', content: text('hi'), code: 's1' });
    expect(view.root['wrapped']).to.deep.equal({
      name: 'wrapped',
      concept: 'native.Text',
      content: text('[pre]'),
      code: 's2',
    });
    expect(view.root['left']).to.deep.include({ name: 'left', concept: 'native.Text', content: text('[hi]') });
    expect(view.root['right']).to.deep.include({ name: 'right', concept: 'ctl.Shout', content: text('[PRE]!') });
    // the branches run at once: which one takes the first fresh id is theirs to decide
    expect([view.root['left']!.code, view.root['right']!.code].sort()).to.deep.equal(['s3', 's4']);
    expect(view.root['main_stuff']).to.deep.equal({
      name: 'anything',
      concept: 'native.Anything',
      content: { left: text('[hi]'), right: text('[PRE]!') },
      code: 's5',
    });
  });

  it('should let a later sequence step read each branch output by name', async () => {
    const view = memoryView((await runPipe(library, 'par_then_read', inputs)).memory);
    expect(view.main).to.equal('summary');
    expect(view.aliases).to.deep.equal({ main_stuff: 'summary' });
    expect(Object.keys(view.root)).to.deep.equal(['word', 'wrapped', 'left', 'right', 'both', 'summary']);
    expect(view.root['both']).to.deep.equal({
      name: 'both',
      concept: 'native.Anything',
      content: { left: text('[hi]'), right: text('[PRE]!') },
      code: 's5',
    });
    expect(view.root['summary']).to.deep.equal({
      name: 'summary',
      concept: 'native.Text',
      content: text('[hi] / [PRE]!'),
      code: 's6',
    });
  });

  it('should keep the branch output under a branch result the parallel is stored under', async () => {
    const named = libraryOf(
      `${CONTROLLERS_BUNDLE}
[pipe.par_as_right]
type = "PipeSequence"
description = "the parallel stored under one of its branch results"
inputs = { word = "Text", wrapped = "Text" }
output = "Text"
steps = [
  { pipe = "par_each", result = "right" },
  { pipe = "echo_right", result = "echoed" },
]

[pipe.echo_right]
type = "PipeCompose"
description = "reads the branch output"
inputs = { right = "Shout" }
output = "Text"
template = "{{ right }}"
`,
    );
    const view = memoryView((await runPipe(named, 'par_as_right', inputs)).memory);
    expect(Object.keys(view.root)).to.deep.equal(['word', 'wrapped', 'left', 'right', 'echoed']);
    expect(view.root['right']).to.deep.include({ name: 'right', concept: 'ctl.Shout', content: text('[PRE]!') });
    expect(view.root['echoed']).to.deep.include({ concept: 'native.Text', content: text('[PRE]!') });
  });

  it('should fill the combined_output concept fields from the branches, without adding each output', async () => {
    const view = memoryView((await runPipe(library, 'par_combined', inputs)).memory);
    expect(view.main).to.equal('main_stuff');
    expect(view.aliases).to.deep.equal({});
    expect(Object.keys(view.root)).to.deep.equal(['word', 'wrapped', 'main_stuff']);
    expect(view.root['main_stuff']).to.deep.equal({
      name: 'pair',
      concept: 'ctl.Pair',
      content: { left: text('[hi]'), right: text('[PRE]!') },
      code: 's5',
    });
  });

  it('should refuse branch contents that do not match the combined_output fields', async () => {
    const error = await runFailure(runPipe(library, 'par_flat', inputs));
    expect(error).to.be.instanceOf(PipeOutputValidationError);
    expect(error.message).to.equal(
      "PipeParallel 'par_flat': the branch results do not match combined_output ctl.FlatPair: /left must be string; /right must be string.",
    );
  });

  it('should run each branch on its own copy of the memory', async () => {
    const view = memoryView((await runPipe(library, 'par_isolated', { word: 'hi' })).memory);
    expect(Object.keys(view.root)).to.deep.equal(['word', 'rewritten', 'wrapped_once', 'main_stuff']);
    expect(view.root['word']).to.deep.equal({ name: 'word', concept: 'native.Text', content: text('hi'), code: 's1' });
    expect(view.root['rewritten']).to.deep.include({ name: 'word', concept: 'native.Text', content: text('[[hi]]') });
    expect(view.root['wrapped_once']).to.deep.include({
      name: 'wrapped_once',
      concept: 'native.Text',
      content: text('[hi]'),
    });
    expect(view.root['main_stuff']!.content).to.deep.equal({ rewritten: text('[[hi]]'), wrapped_once: text('[hi]') });
  });
});
