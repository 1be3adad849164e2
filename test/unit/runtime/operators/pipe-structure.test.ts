/**
 * PipeStructure through the runtime API (docs/pipes.md#pipestructure): one structured-output call whose prompt wraps
 * the
 * input text, the pipe's model, list outputs, and a run on the mock backend.
 */
import { expect } from 'chai';
import { libraryOf } from '../../../helpers/library.js';
import { memoryView, type RecordedCall, recordingPort, runPipe, text } from '../../../helpers/runtime-run.js';

const BUNDLE = `
domain = "hours"

[concept.DoorNotice]
description = "The notice on a shop door"
refines = "Text"

[concept.OpeningHours]
description = "When a shop is open"
[concept.OpeningHours.structure]
day = { type = "text", description = "Day of the week", required = true }
opens = { type = "text", description = "Opening time, HH:MM", required = true }

[pipe.read_hours]
type = "PipeStructure"
description = "Reads a line of opening hours"
inputs = { door_notice = "DoorNotice" }
output = "OpeningHours"
model = "$engineering-structured"

[pipe.read_week]
type = "PipeStructure"
description = "Reads two days of opening hours"
inputs = { door_notice = "Text" }
output = "OpeningHours[2]"
`;

const MONDAY = { day: 'Monday', opens: '09:00' };
const TUESDAY = { day: 'Tuesday', opens: '10:00' };
const SYSTEM = 'You are a data modeling expert specialized in extracting structure from text.';

function objectRequest(call: RecordedCall | undefined) {
  if (call?.kind !== 'object') throw new Error(`expected an object call, got ${JSON.stringify(call)}`);
  return call.request;
}

describe('PipeStructure', () => {
  const library = libraryOf(BUNDLE);

  it('should send the input text in the structuring prompt, with the schema of the output concept and the pipe model', async () => {
    const port = recordingPort({ object: () => MONDAY });
    const outcome = await runPipe(library, 'read_hours', { door_notice: 'Mon 9-18' }, { inference: port });
    expect(port.calls).to.have.length(1);
    const request = objectRequest(port.calls[0]);
    expect(request).to.include({
      pipeCode: 'read_hours',
      modelRef: '$engineering-structured',
      schemaName: 'OpeningHours',
      systemPrompt: SYSTEM,
      userPrompt:
        'Read the following text carefully and produce the requested structured output from it.\n---\nMon 9-18',
    });
    expect(request.jsonSchema).to.deep.include({ type: 'object', required: ['day', 'opens'] });
    expect(request.validate({ day: 'Monday' })).to.deep.equal(["(root) must have required property 'opens'"]);
    expect(memoryView(outcome.memory)).to.deep.equal({
      main: 'main_stuff',
      aliases: {},
      root: {
        door_notice: { name: 'door_notice', concept: 'hours.DoorNotice', content: text('Mon 9-18'), code: 's1' },
        main_stuff: { name: 'opening_hours', concept: 'hours.OpeningHours', content: MONDAY, code: 's2' },
      },
    });
  });

  it('should ask for exactly N items for an X[N] output, with the deck default model', async () => {
    const port = recordingPort({ object: () => ({ items: [MONDAY, TUESDAY] }) });
    const outcome = await runPipe(library, 'read_week', { door_notice: 'Mon 9, Tue 10' }, { inference: port });
    const request = objectRequest(port.calls[0]);
    expect(request).to.not.have.property('modelRef');
    expect(request.schemaName).to.equal('ListOfOpeningHours');
    const items = (request.jsonSchema['properties'] as Record<string, Record<string, unknown>>)['items'];
    expect(items).to.include({ type: 'array', minItems: 2, maxItems: 2 });
    expect(request.validate({ items: [MONDAY] })).to.deep.equal(['/items must hold exactly 2 items, not 1']);
    expect(memoryView(outcome.memory).root['main_stuff']?.content).to.deep.equal({ items: [MONDAY, TUESDAY] });
  });

  it('should honour a step override of the output multiplicity', async () => {
    const port = recordingPort({ object: () => ({ items: [MONDAY] }) });
    await runPipe(library, 'read_hours', { door_notice: 'Mon 9' }, { inference: port, outputMultiplicity: true });
    expect(objectRequest(port.calls[0]).schemaName).to.equal('ListOfOpeningHours');
  });

  describe('on the mock backend', () => {
    it('should complete with content valid against the output concept', async () => {
      const outcome = await runPipe(library, 'read_week', { door_notice: 'Mon 9, Tue 10' });
      const main = outcome.memory.get('main_stuff');
      expect(main.concept.ref).to.equal('hours.OpeningHours');
      if (main.content.kind !== 'list') throw new Error('expected a list');
      expect(main.content.items).to.have.length(2);
      for (const item of main.content.items) expect(item).to.have.all.keys('day', 'opens');
    });
  });
});
