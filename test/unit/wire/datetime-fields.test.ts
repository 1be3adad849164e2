import { expect } from 'chai';
import { inputContractSchema } from '../../../shared/wire/contract-schema.js';
import { inputForms } from '../../../shared/wire/form-descriptors.js';
import { libraryOf } from '../../helpers/library.js';

/** Structure fields of type `datetime` and `time` (docs/concepts.md#structure-fields, [0.16]). */
const MEETINGS = `
domain = "meetings"

[concept.Meeting]
description = "A meeting"

[concept.Meeting.structure]
starts_at = { type = "datetime", description = "When it starts", required = true }
daily_at  = { type = "time", description = "Daily stand-up time", default_value = 09:30:00 }

[pipe.plan]
type = "PipeLLM"
description = "Plan a meeting"
inputs = { meeting = "Meeting" }
output = "Text"
prompt = "Plan @meeting"
`;

describe('datetime and time structure fields', () => {
  const library = libraryOf(MEETINGS);
  const meeting = library.resolveConcept('meetings.Meeting');

  it('should describe both as ISO strings in the content schema', () => {
    const schema = library.contentSchema(meeting) as { properties: Record<string, unknown> };
    expect(schema.properties['starts_at']).to.deep.equal({ type: 'string', description: 'When it starts' });
    expect(schema.properties['daily_at']).to.deep.include({
      anyOf: [{ type: 'string', description: 'Daily stand-up time', default: '09:30:00.000' }, { type: 'null' }],
    });
  });

  it('should give them the date-time and time formats in the I/O contract schema, as pydantic does', () => {
    const schema = inputContractSchema(library, meeting, 'single') as { properties: Record<string, unknown> };
    expect(schema.properties['starts_at']).to.deep.include({ format: 'date-time', type: 'string' });
    expect(schema.properties['daily_at']).to.deep.include({
      anyOf: [{ format: 'time', type: 'string' }, { type: 'null' }],
    });
  });

  it('should ask a datetime as a date field with its time, and a time as text', () => {
    const [field] = inputForms(library)['meetings.plan']!.fields;
    expect((field as { fields: unknown[] }).fields).to.deep.equal([
      { kind: 'date', name: 'starts_at', description: 'When it starts', required: true, datetime: true },
      {
        kind: 'text',
        name: 'daily_at',
        description: 'Daily stand-up time',
        required: false,
        default_value: '09:30:00.000',
      },
    ]);
  });
});
