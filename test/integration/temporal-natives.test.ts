/**
 * The natives Date, Time and Composite end to end (docs/concepts.md#native-concepts): caller ISO strings become Date /
 * Time
 * content, templates print them at the precision they state, binding steps derive them from date, datetime and time
 * fields, mock outputs are schema-valid, and the I/O contracts describe them.
 */
import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp } from '../helpers/test-app.js';

const AGENDA = [
  'domain = "agenda"',
  'main_pipe = "announce"',
  '[concept.Meeting]',
  'description = "A meeting on the agenda"',
  '[concept.Meeting.structure]',
  'topic = { type = "text", description = "What it is about", required = true }',
  'day = { type = "date", description = "The day", required = true }',
  'starts = { type = "datetime", description = "When it starts", required = true }',
  'doors = { type = "time", description = "When the doors open", required = true }',
  '[pipe.announce]',
  'type = "PipeCompose"',
  'description = "Announces a meeting"',
  'inputs = { day = "Date", at = "Time" }',
  'output = "Text"',
  'template = "On {{ day }} at {{ at }} ({{ day.date }})"',
  '[pipe.schedule]',
  'type = "PipeLLM"',
  'description = "Picks a date"',
  'inputs = { request = "Text" }',
  'output = "Date"',
  'prompt = "When? $request"',
  '[pipe.dates_of]',
  'type = "PipeSequence"',
  'description = "Binds the dates of a meeting"',
  'inputs = { meeting = "Meeting" }',
  'output = "Time"',
  'steps = [',
  '  { from = "meeting.day", result = "day" },',
  '  { from = "meeting.starts", result = "starts" },',
  '  { from = "meeting.doors", result = "doors" },',
  ']',
].join('\n');

const app = buildTestApp();

describe('natives Date, Time and Composite', () => {
  it('should validate a bundle using Date and Time (inputs, outputs, binding of date, datetime and time fields)', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [AGENDA] })
      .expect(200);
    expect(response.body).to.include({ is_valid: true });
    expect(response.body.validated_pipes.map((pipe: { status: string }) => pipe.status)).to.deep.equal([
      'SUCCESS',
      'SUCCESS',
      'SUCCESS',
    ]);
  });

  it('should bind ISO strings to Date and Time inputs and print them at their stated precision', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [AGENDA], inputs: { day: '2025-01-06T09:30:00Z', at: '18:45' } })
      .expect(200);
    const root = response.body.pipe_output.working_memory.root;
    expect(root.day.content).to.deep.equal({ date: '2025-01-06', time: '09:30:00+00:00' });
    expect(root.day.concept.code).to.equal('Date');
    expect(root.at.content).to.deep.equal({ time: '18:45:00' });
    expect(root.main_stuff.content).to.deep.equal({ text: 'On 2025-01-06T09:30:00+00:00 at 18:45:00 (2025-01-06)' });
  });

  it('should refuse a string that is no calendar date for a Date input (422)', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [AGENDA], inputs: { day: '2025-02-30', at: '18:45' } })
      .expect(422);
    expect(JSON.stringify(response.body)).to.include("'2025-02-30' is not an ISO 8601 date or date-time");
  });

  it('should mock a Date output that its own schema accepts', async () => {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [AGENDA], pipe_code: 'schedule', inputs: { request: 'next week' } })
      .expect(200);
    const { content, concept } = response.body.pipe_output.working_memory.root.main_stuff;
    expect(concept.code).to.equal('Date');
    expect(content.date).to.match(/^\d{4}-\d{2}-\d{2}$/);
    if (content.time !== null && content.time !== undefined) expect(content.time).to.match(/^\d{2}:\d{2}:\d{2}/);
  });

  it('should derive Date from date and datetime fields and Time from a time field in binding steps', async () => {
    const meeting = {
      concept: 'Meeting',
      content: { topic: 'Budget', day: '2025-03-01', starts: '2025-03-01T14:00:00+01:00', doors: '13:30:00' },
    };
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [AGENDA], pipe_code: 'dates_of', inputs: { meeting } })
      .expect(200);
    const root = response.body.pipe_output.working_memory.root;
    expect(root.day.content).to.deep.equal({ date: '2025-03-01' });
    expect(root.starts.content).to.deep.equal({ date: '2025-03-01', time: '14:00:00+01:00' });
    expect(root.doors.content).to.deep.equal({ time: '13:30:00' });
    expect([root.day.concept.code, root.starts.concept.code, root.doors.concept.code]).to.deep.equal([
      'Date',
      'Date',
      'Time',
    ]);
  });

  it('should describe Date and Time inputs in the I/O contract', async () => {
    const response = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [AGENDA] })
      .expect(200);
    const text = JSON.stringify(response.body);
    expect(text).to.include('native.Date');
  });
});
