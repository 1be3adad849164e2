/**
 * PipeLLM through the runtime API with a recording inference port (docs/runtime.md#pipellm): prompt rendering
 * (shorthands,
 * domain and pipe system prompts), model settings, text versus structured output, list outputs and their counts,
 * `structuring_method = "preliminary_text"`, and the token usage records.
 */
import { expect } from 'chai';
import { libraryOf } from '../../../helpers/library.js';
import {
  clockIso,
  memoryView,
  type RecordedCall,
  recordingPort,
  runPipe,
  text,
  texts,
} from '../../../helpers/runtime-run.js';

const BUNDLE = `
domain = "llm"
system_prompt = "You answer about {{ topic }}."

[concept.Ticket]
description = "A ticket"
[concept.Ticket.structure]
title = { type = "text", description = "Title", required = true }
urgent = { type = "boolean", description = "Urgent?", required = true }

[pipe.answer]
type = "PipeLLM"
description = "text output, shorthands, inline model settings"
inputs = { topic = "Text", note = "Text" }
output = "Text"
model = { model = "gpt-4o-mini", temperature = 0.2, max_tokens = 300 }
prompt = "Say $topic. Note: @note"

[pipe.own_system]
type = "PipeLLM"
description = "its own system prompt"
inputs = { topic = "Text" }
output = "Text"
system_prompt = "Be brief on {{ topic }}."
prompt = "{{ topic }}"

[pipe.ticket]
type = "PipeLLM"
description = "structured output"
inputs = { topic = "Text" }
output = "Ticket"
model = "gpt-4o"
prompt = "A ticket about {{ topic }}"

[pipe.tickets]
type = "PipeLLM"
description = "a list of structured outputs"
inputs = { topic = "Text" }
output = "Ticket[]"
prompt = "Tickets about {{ topic }}"

[pipe.two_words]
type = "PipeLLM"
description = "a fixed number of texts"
inputs = { topic = "Text" }
output = "Text[2]"
prompt = "Give {{ _nb_output }} words on {{ topic }}"

[pipe.drafted]
type = "PipeLLM"
description = "draft, then structure"
inputs = { topic = "Text" }
output = "Ticket"
model = "gpt-4o"
model_to_structure = "gpt-4o-mini"
structuring_method = "preliminary_text"
prompt = "A ticket about {{ topic }}"
`;

const TICKET = { title: 'Kettle broken', urgent: true };

/** The object request of a recorded call, failing the test when it is a text call. */
function objectRequest(call: RecordedCall | undefined) {
  if (call?.kind !== 'object') throw new Error(`expected an object call, got ${JSON.stringify(call)}`);
  return call.request;
}

/** The `items` member of a list schema's properties. */
function listItemsSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return (schema['properties'] as Record<string, Record<string, unknown>>)['items']!;
}

describe('PipeLLM', () => {
  const library = libraryOf(BUNDLE);

  describe('prompts', () => {
    it('should render the prompt shorthands and the domain system prompt, and pass the inline model settings', async () => {
      const port = recordingPort({ text: () => 'Tea is hot.' });
      const outcome = await runPipe(library, 'answer', { topic: 'tea', note: 'hot' }, { inference: port });
      expect(port.calls).to.deep.equal([
        {
          kind: 'text',
          request: {
            pipeCode: 'answer',
            modelRef: 'gpt-4o-mini',
            temperature: 0.2,
            maxTokens: 300,
            systemPrompt: 'You answer about tea.',
            userPrompt: 'Say tea. Note: <note>\nhot\n</note>',
          },
        },
      ]);
      expect(memoryView(outcome.memory)).to.deep.equal({
        main: 'main_stuff',
        aliases: {},
        root: {
          topic: { name: 'topic', concept: 'native.Text', content: text('tea'), code: 's1' },
          note: { name: 'note', concept: 'native.Text', content: text('hot'), code: 's2' },
          main_stuff: { name: 'text', concept: 'native.Text', content: text('Tea is hot.'), code: 's3' },
        },
      });
    });

    it("should use the pipe's system prompt instead of the domain's", async () => {
      const port = recordingPort({ text: () => 'ok' });
      await runPipe(library, 'own_system', { topic: 'tea' }, { inference: port });
      expect(port.calls).to.deep.equal([
        { kind: 'text', request: { pipeCode: 'own_system', systemPrompt: 'Be brief on tea.', userPrompt: 'tea' } },
      ]);
    });

    it('should record one token usage per call, timed by the clock', async () => {
      const port = recordingPort({ text: () => 'ok' });
      const outcome = await runPipe(library, 'own_system', { topic: 'tea' }, { inference: port });
      expect(outcome.createdAt).to.equal(Date.parse(clockIso(0)));
      expect(outcome.inferenceCalls).to.deep.equal([
        {
          modelType: 'llm',
          modelName: 'recording',
          modelId: 'recording',
          pipeCode: 'own_system',
          jobCategory: 'llm_job',
          inputTokens: 1,
          outputTokens: 1,
          costUsd: null,
          backend: 'recording',
          startedAt: Date.parse(clockIso(1)),
          completedAt: Date.parse(clockIso(2)),
        },
      ]);
      expect(outcome.finishedAt).to.equal(Date.parse(clockIso(3)));
    });
  });

  describe('structured output', () => {
    it('should ask for one object valid against the output concept and store it', async () => {
      const port = recordingPort({ object: () => TICKET });
      const outcome = await runPipe(library, 'ticket', { topic: 'tea' }, { inference: port });
      const request = objectRequest(port.calls[0]);
      expect(port.calls).to.have.length(1);
      expect(request).to.include({
        pipeCode: 'ticket',
        modelRef: 'gpt-4o',
        schemaName: 'Ticket',
        systemPrompt: 'You answer about tea.',
        userPrompt: 'A ticket about tea',
      });
      expect(request.jsonSchema).to.deep.include({ type: 'object', required: ['title', 'urgent'] });
      expect(Object.keys(request.jsonSchema['properties'] as object)).to.deep.equal(['title', 'urgent']);
      expect(request.validate(TICKET)).to.deep.equal([]);
      expect(request.validate({ title: 'x' })).to.deep.equal(["(root) must have required property 'urgent'"]);
      expect(memoryView(outcome.memory).root['main_stuff']).to.deep.equal({
        name: 'ticket',
        concept: 'llm.Ticket',
        content: TICKET,
        code: 's2',
      });
    });

    it('should ask for a list of any length for a [] output', async () => {
      const port = recordingPort({ object: () => ({ items: [TICKET, TICKET] }) });
      const outcome = await runPipe(library, 'tickets', { topic: 'tea' }, { inference: port });
      const request = objectRequest(port.calls[0]);
      expect(request.schemaName).to.equal('ListOfTicket');
      expect(request.jsonSchema).to.deep.include({ type: 'object', required: ['items'], additionalProperties: false });
      expect(listItemsSchema(request.jsonSchema)).to.include({ type: 'array' });
      expect(listItemsSchema(request.jsonSchema)).to.not.have.any.keys('minItems', 'maxItems');
      expect(request.validate({ items: [TICKET, { title: 'x' }] })).to.deep.equal([
        "/items/1 must have required property 'urgent'",
      ]);
      expect(memoryView(outcome.memory).root['main_stuff']).to.deep.equal({
        name: 'ticket',
        concept: 'llm.Ticket',
        content: { items: [TICKET, TICKET] },
        code: 's2',
      });
    });

    it('should ask for exactly N texts for a Text[N] output, with _nb_output in the prompt', async () => {
      const port = recordingPort({ object: () => texts('oolong', 'sencha') });
      const outcome = await runPipe(library, 'two_words', { topic: 'tea' }, { inference: port });
      const request = objectRequest(port.calls[0]);
      expect(request.userPrompt).to.equal('Give 2 words on tea');
      expect(request.schemaName).to.equal('ListOfText');
      expect(listItemsSchema(request.jsonSchema)).to.include({ type: 'array', minItems: 2, maxItems: 2 });
      expect(request.validate(texts('one'))).to.deep.equal(['/items must hold exactly 2 items, not 1']);
      expect(memoryView(outcome.memory).root['main_stuff']!.content).to.deep.equal(texts('oolong', 'sencha'));
    });

    it('should apply the request output_multiplicity to the pipe it targets', async () => {
      const port = recordingPort({ object: () => texts('a', 'b', 'c') });
      const outcome = await runPipe(
        library,
        'own_system',
        { topic: 'tea' },
        { inference: port, outputMultiplicity: 3 },
      );
      const request = objectRequest(port.calls[0]);
      expect(request.schemaName).to.equal('ListOfText');
      expect(listItemsSchema(request.jsonSchema)).to.include({ minItems: 3, maxItems: 3 });
      expect(memoryView(outcome.memory).root['main_stuff']!.content).to.deep.equal(texts('a', 'b', 'c'));
    });

    it('should draft free text with model, then structure the draft with model_to_structure (preliminary_text)', async () => {
      const port = recordingPort({ text: () => 'The kettle is broken; urgent.', object: () => TICKET });
      const outcome = await runPipe(library, 'drafted', { topic: 'tea' }, { inference: port });
      expect(port.calls.map((call) => call.kind)).to.deep.equal(['text', 'object']);
      expect(port.calls[0]!.request).to.deep.equal({
        pipeCode: 'drafted',
        modelRef: 'gpt-4o',
        systemPrompt: 'You answer about tea.',
        userPrompt:
          'A ticket about tea\n\n---\nAnswer in clear markdown prose; your answer will be turned into a structured object afterwards.',
      });
      expect(objectRequest(port.calls[1])).to.include({
        pipeCode: 'drafted',
        modelRef: 'gpt-4o-mini',
        schemaName: 'Ticket',
        systemPrompt: 'You are a data modeling expert specialized in extracting structure from text.',
        userPrompt:
          'Extract and structure information from this text:\n<draft_text>\nThe kettle is broken; urgent.\n</draft_text>\nNow generate the JSON in the required format. Do not create information that is not in the text.',
      });
      expect(memoryView(outcome.memory).root['main_stuff']!.content).to.deep.equal(TICKET);
      expect(outcome.inferenceCalls.map((call) => [call.startedAt, call.completedAt])).to.deep.equal([
        [Date.parse(clockIso(1)), Date.parse(clockIso(2))],
        [Date.parse(clockIso(3)), Date.parse(clockIso(4))],
      ]);
    });
  });
});
