/**
 * PipeExtract and PipeStructure whose one input is declared optional (`?`) and absent
 * (docs/language.md#optionality-presence-markers-and-absences): the pipe
 * runs with the value undefined. PipeExtract reads nothing (its `Page[]` output is the empty list, no extractor
 * needed);
 * PipeStructure resolves an optional output to a `declared_absent` absence without a call, and otherwise structures an
 * empty text.
 */
import { expect } from 'chai';
import { libraryOf } from '../../../helpers/library.js';
import { recordingPort, runPipe } from '../../../helpers/runtime-run.js';

const BUNDLE = `
domain = "scan"
description = "Scans and notes that may be missing"

[concept.Card]
description = "A filing card"

[concept.Card.structure]
title = { type = "text", description = "The title" }

[pipe.read_scan]
type = "PipeExtract"
description = "The pages of a scan, when there is one"
inputs = { scan = "Document?" }
output = "Page[]"

[pipe.maybe_card]
type = "PipeStructure"
description = "A card from a note, when there is one"
inputs = { note = "Text?" }
output = "Card?"

[pipe.card_of]
type = "PipeStructure"
description = "A card from a note, even an empty one"
inputs = { note = "Text?" }
output = "Card"
`;

const NOTE_ABSENCE = {
  variableName: 'note',
  kind: 'not_provided',
  reason: "the caller did not provide the optional input 'note'",
  producingPipe: null,
  upstream: null,
};

describe('an absent optional sole input', () => {
  const library = libraryOf(BUNDLE);

  it('should run a PipeExtract to an empty page list without an extractor', async () => {
    const { memory } = await runPipe(library, 'read_scan', {});
    expect(memory.mainAbsence()).to.equal(undefined);
    expect(memory.mainStuff()?.content).to.deep.equal({ kind: 'list', items: [] });
    expect(memory.mainStuff()?.concept.ref).to.equal('native.Page');
  });

  it('should resolve the optional output of a PipeStructure to a declared absence without a call', async () => {
    const port = recordingPort();
    const { memory } = await runPipe(library, 'maybe_card', {}, { inference: port });
    expect(port.calls).to.deep.equal([]);
    expect(memory.mainAbsence()).to.deep.equal({
      variableName: 'main_stuff',
      kind: 'declared_absent',
      reason: "PipeStructure 'maybe_card' had no text to structure: its optional input 'note' is absent",
      producingPipe: 'maybe_card',
      upstream: NOTE_ABSENCE,
    });
  });

  it('should structure an empty text when the PipeStructure output is not optional', async () => {
    const port = recordingPort({ object: () => ({ title: 'Untitled' }) });
    const { memory } = await runPipe(library, 'card_of', {}, { inference: port });
    const call = port.calls[0];
    if (call?.kind !== 'object') throw new Error('expected one object call');
    expect(call.request.userPrompt).to.equal(
      'Read the following text carefully and produce the requested structured output from it.\n---\n',
    );
    expect(memory.mainStuff()?.content).to.deep.equal({ kind: 'item', item: { title: 'Untitled' } });
  });

  it('should still structure the note when it is given', async () => {
    const port = recordingPort({ object: () => ({ title: 'Groceries' }) });
    const { memory } = await runPipe(library, 'maybe_card', { note: 'Groceries: milk' }, { inference: port });
    expect(port.calls).to.have.length(1);
    expect(memory.mainAbsence()).to.equal(undefined);
    expect(memory.mainStuff()?.content).to.deep.equal({ kind: 'item', item: { title: 'Groceries' } });
  });
});
