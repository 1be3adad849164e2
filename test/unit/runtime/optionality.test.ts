/**
 * The presence gate of the runtime (docs/language.md#optionality-presence-markers-and-absences): a plain input recorded
 * absent lifts its pipe (a single output
 * recorded `skipped`, a plural one `[]` with a `skipped` note), a `?` one lets it run, a `!` one fails it; entry inputs
 * marked `?` may be left
 * out; binding steps over an absent root are lifted.
 */
import { expect } from 'chai';
import { OptionalValueAbsentError } from '../../../shared/errors/index.js';
import { libraryOf } from '../../helpers/library.js';
import { OPTIONAL_BUNDLE } from '../../helpers/optional-bundle.js';
import { runFailure, runPipe } from '../../helpers/runtime-run.js';

const EXTRA = `
[pipe.list_flow]
type = "PipeSequence"
description = "A plural step over an absent hint"
inputs = { hint = "Text?" }
output = "Text[]"
steps = [{ pipe = "enrich_hint", result = "ideas", multiple_output = true }]

[pipe.count_ideas]
type = "PipeCompose"
description = "Counts the ideas"
inputs = { ideas = "Text[]" }
output = "Text"
template = "{{ ideas | length }} ideas"

[pipe.list_then_count]
type = "PipeSequence"
description = "A plural step over an absent hint, then a step reading its list"
inputs = { hint = "Text?" }
output = "Text"
steps = [
  { pipe = "enrich_hint", result = "ideas", multiple_output = true },
  { pipe = "count_ideas", result = "count" },
]

[concept.Card]
description = "A card"

[concept.Card.structure]
title = { type = "text", description = "The title" }

[pipe.title_of]
type = "PipeSequence"
description = "The title of a card, when it has one"
inputs = { card = "Card" }
output = "Text?"
steps = [{ from = "card.title", result = "title" }]

[pipe.bound_flow]
type = "PipeSequence"
description = "A binding of an absent hint"
inputs = { hint = "Text?" }
output = "Text?"
steps = [{ from = "hint", result = "copied" }]
`;

describe('the presence gate', () => {
  const library = libraryOf(OPTIONAL_BUNDLE + EXTRA);

  it('should resolve a lifted pipe with a plural output to an empty list', async () => {
    const { memory } = await runPipe(library, 'list_flow', {});
    expect(memory.mainAbsence()).to.equal(undefined);
    expect(memory.mainStuff()?.content).to.deep.equal({ kind: 'list', items: [] });
    expect(memory.mainStuffName()).to.equal('ideas');
  });

  it('should keep a skipped note beside the empty list of a lifted plural output (docs/language.md#optionality-presence-markers-and-absences)', async () => {
    const { memory } = await runPipe(library, 'list_flow', {});
    expect(Object.fromEntries(memory.absenceEntries())['ideas']).to.deep.equal({
      variableName: 'ideas',
      kind: 'skipped',
      reason: "pipe 'enrich_hint' was skipped: its input 'hint' is absent",
      producingPipe: 'enrich_hint',
      upstream: {
        variableName: 'hint',
        kind: 'not_provided',
        reason: "the caller did not provide the optional input 'hint'",
        producingPipe: null,
        upstream: null,
      },
    });
    expect(memory.absence('ideas')).to.equal(undefined);
  });

  it('should run a plain reader of that empty list: the note does not lift it', async () => {
    const { memory } = await runPipe(library, 'list_then_count', {});
    expect(memory.mainAbsence()).to.equal(undefined);
    expect(memory.mainStuffName()).to.equal('count');
    expect(memory.mainStuff()?.content).to.deep.equal({ kind: 'item', item: { text: '0 ideas' } });
  });

  it('should record a skipped binding chained to the absent root', async () => {
    const { memory } = await runPipe(library, 'bound_flow', {});
    expect(memory.mainAbsence()).to.deep.include({
      variableName: 'copied',
      kind: 'skipped',
      producingPipe: 'bound_flow',
    });
    expect(memory.mainAbsence()?.upstream).to.include({ variableName: 'hint', kind: 'not_provided' });
  });

  it('should fail a forced input with the provenance chain', async () => {
    const error = await runFailure(runPipe(library, 'insist_flow', {}));
    expect(error).to.be.instanceOf(OptionalValueAbsentError);
    expect(error.message).to.equal(
      "Pipe 'insist': the force-marked input 'hint' is absent: 'hint' not provided (the caller did not provide the optional input 'hint').",
    );
  });

  it('should chain a skip on a skipped value to its cause', async () => {
    const { memory } = await runPipe(library, 'only_enrich', {});
    expect(Object.fromEntries(memory.absenceEntries())).to.deep.equal({
      hint: {
        variableName: 'hint',
        kind: 'not_provided',
        reason: "the caller did not provide the optional input 'hint'",
        producingPipe: null,
        upstream: null,
      },
      enriched: {
        variableName: 'enriched',
        kind: 'skipped',
        reason: "pipe 'enrich_hint' was skipped: its input 'hint' is absent",
        producingPipe: 'enrich_hint',
        upstream: memory.absence('hint'),
      },
    });
  });

  it('should record a declared absence when a binding path reaches no value', async () => {
    const { memory } = await runPipe(library, 'title_of', { card: { concept: 'brief.Card', content: {} } });
    expect(memory.mainAbsence()).to.deep.equal({
      variableName: 'title',
      kind: 'declared_absent',
      reason: "the binding path 'card.title' reaches no value",
      producingPipe: 'title_of',
      upstream: null,
    });
  });
});
