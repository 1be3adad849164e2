/**
 * PipeSequence binding steps and dotted `batch_over` through the runtime API, on the mock backend
 * (docs/data-flow.md#binding-steps): the copy under `result` with the derived concept, lists crossed and flattened,
 * scalar fields
 * as native content, and a batch over a bound list.
 */
import { expect } from 'chai';
import { libraryOf } from '../../../helpers/library.js';
import { describeOnBothPaths, memoryView, recordingPort, runPipe, text } from '../../../helpers/runtime-run.js';

const BUNDLE = `
domain = "rounds"

[concept.Note]
description = "A note"
[concept.Note.structure]
body = { type = "text", description = "The text", required = true }
score = { type = "integer", description = "Importance", required = true }

[concept.Round]
description = "A round of the ward"
[concept.Round.structure]
note = { type = "concept", concept_ref = "Note", description = "The round's note", required = true }
tags = { type = "list", item_type = "text", description = "Tags" }

[concept.Catalog]
description = "A catalog"
[concept.Catalog.structure]
pages = { type = "list", item_type = "concept", item_concept_ref = "Note", description = "Its pages", required = true }

[pipe.morning]
type = "PipeSequence"
description = "Binds the note of the morning round, then its body"
inputs = { morning_round = "Round" }
output = "Text"
steps = [
  { from = "morning_round.note", result = "morning_note" },
  { from = "morning_note.body", result = "note_text" },
]

[pipe.all_tags]
type = "PipeSequence"
description = "Binds the tags of every round, flattened"
inputs = { rounds = "Round[]" }
output = "Text[]"
steps = [{ from = "rounds.tags", result = "tags" }]

[pipe.summarize_catalog]
type = "PipeSequence"
description = "Summarizes every page of a catalog"
inputs = { catalog = "Catalog" }
output = "Text[]"
steps = [{ pipe = "summarize_page", batch_over = "catalog.pages", batch_as = "page", result = "summaries" }]

[pipe.summarize_page]
type = "PipeLLM"
description = "Summarizes a page"
inputs = { page = "Note" }
output = "Text"
prompt = "Summarize $page.body"
`;

const note = (body: string, score: number) => ({ body, score });

describeOnBothPaths('PipeSequence binding steps', () => {
  const library = libraryOf(BUNDLE);

  it('should copy the value at the path under result, with the derived concept, as the main stuff, without inference', async () => {
    const port = recordingPort();
    const round = { concept: 'Round', content: { note: note('Bed 4 is fine', 2), tags: ['calm'] } };
    const outcome = await runPipe(library, 'morning', { morning_round: round }, { inference: port });
    expect(port.calls).to.deep.equal([]);
    const view = memoryView(outcome.memory);
    expect(view.main).to.equal('note_text');
    expect(view.root['morning_note']).to.deep.equal({
      name: 'morning_note',
      concept: 'rounds.Note',
      content: note('Bed 4 is fine', 2),
      code: 's2',
    });
    expect(view.root['note_text']).to.deep.equal({
      name: 'note_text',
      concept: 'native.Text',
      content: text('Bed 4 is fine'),
      code: 's3',
    });
  });

  it('should cross lists into one flat list, dropping empty values', async () => {
    const rounds = {
      concept: 'Round',
      content: [
        { note: note('a', 1), tags: ['calm', 'dry'] },
        { note: note('b', 1) },
        { note: note('c', 1), tags: ['late'] },
      ],
    };
    const outcome = await runPipe(library, 'all_tags', { rounds });
    expect(memoryView(outcome.memory).root['tags']).to.deep.equal({
      name: 'tags',
      concept: 'native.Text',
      content: { items: [text('calm'), text('dry'), text('late')] },
      code: 's2',
    });
  });

  it('should batch over a dotted path through a private binding', async () => {
    const port = recordingPort({ text: (request) => `sum of ${request.userPrompt}` });
    const catalog = { concept: 'Catalog', content: { pages: [note('one', 1), note('two', 2)] } };
    const outcome = await runPipe(library, 'summarize_catalog', { catalog }, { inference: port });
    expect(port.calls.map((call) => call.request.userPrompt)).to.deep.equal(['Summarize one', 'Summarize two']);
    const view = memoryView(outcome.memory);
    expect(view.root['_bound_catalog_pages']).to.deep.include({
      concept: 'rounds.Note',
      content: { items: [note('one', 1), note('two', 2)] },
    });
    expect(view.root['summaries']?.content).to.deep.equal({
      items: [text('sum of Summarize one'), text('sum of Summarize two')],
    });
  });

  it('should run on the mock backend from mock inputs', async () => {
    const catalog = { concept: 'Catalog', content: { pages: [note('one', 1)] } };
    const outcome = await runPipe(library, 'summarize_catalog', { catalog });
    const summaries = outcome.memory.get('summaries');
    expect(summaries.concept.ref).to.equal('native.Text');
    expect(summaries.content.kind).to.equal('list');
  });
});

const ABSENT_BUNDLE = `
domain = "shelf"

[concept.Sheet]
description = "A sheet"
[concept.Sheet.structure]
body = { type = "text", description = "The text", required = true }

[concept.Binder]
description = "A binder, maybe empty"
[concept.Binder.structure]
pages = { type = "list", item_type = "concept", item_concept_ref = "Sheet", description = "Its pages" }

[pipe.summarize_binder]
type = "PipeSequence"
description = "Summarizes every page of a binder, when there is one"
inputs = { binder = "Binder?" }
output = "Text[]"
steps = [{ pipe = "summarize_page", batch_over = "binder.pages", batch_as = "page", result = "summaries" }]

[pipe.summarize_page]
type = "PipeLLM"
description = "Summarizes a page"
inputs = { page = "Sheet" }
output = "Text"
prompt = "Summarize $page.body"
`;

describe('a dotted batch_over that reaches no value (docs/data-flow.md#binding-steps, docs/language.md#optionality-presence-markers-and-absences)', () => {
  const library = libraryOf(ABSENT_BUNDLE);

  it('should lift the batch to an empty result when the root is absent', async () => {
    const port = recordingPort();
    const outcome = await runPipe(library, 'summarize_binder', {}, { inference: port });
    expect(port.calls).to.deep.equal([]);
    const view = memoryView(outcome.memory);
    expect(view.main).to.equal('summaries');
    expect(view.root['summaries']).to.deep.equal({
      name: 'summaries',
      concept: 'native.Text',
      content: { items: [] },
      code: 's1',
    });
    expect(outcome.memory.mainAbsence()).to.equal(undefined);
    expect(outcome.memory.absence('binder')).to.include({ kind: 'not_provided' });
  });

  it('should batch over an empty bound list when the field is empty', async () => {
    const port = recordingPort();
    const outcome = await runPipe(
      library,
      'summarize_binder',
      { binder: { concept: 'Binder', content: {} } },
      { inference: port },
    );
    expect(port.calls).to.deep.equal([]);
    expect(memoryView(outcome.memory).root['summaries']?.content).to.deep.equal({ items: [] });
  });
});
