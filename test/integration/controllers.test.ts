/**
 * Controller edge cases over HTTP (issue #4; RUNTIME.md §3, docs/runtime.md): PipeSequence, PipeParallel,
 * PipeCondition and PipeBatch on purpose-built bundles, asserting the exact working memory of each run.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { type InferencePort, inThreadTemplateRenderer, type LlmRequest } from '../../shared/runtime/index.js';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = `
domain = "ctl"

[concept.Shout]
description = "A shouted text"
refines = "Text"

[concept.Pair]
description = "Two texts"
[concept.Pair.structure]
left = { type = "concept", concept_ref = "Text", description = "Left", required = true }
right = { type = "concept", concept_ref = "Text", description = "Right", required = true }

[concept.FlatPair]
description = "Two plain strings"
[concept.FlatPair.structure]
left = { type = "text", description = "Left", required = true }
right = { type = "text", description = "Right", required = true }

[concept.Ticket]
description = "A ticket"
[concept.Ticket.structure]
title = { type = "text", description = "Title", required = true }
urgent = { type = "boolean", description = "Urgent?", required = true }
owner = { type = "text", description = "Owner" }

[pipe.seq]
type = "PipeSequence"
description = "wrap then shout"
inputs = { word = "Text" }
output = "Text"
steps = [
  { pipe = "wrap", result = "wrapped" },
  { pipe = "shout", result = "shouted" },
]

[pipe.wrap]
type = "PipeCompose"
description = "wrap"
inputs = { word = "Text" }
output = "Text"
template = "[{{ word }}]"

[pipe.shout]
type = "PipeCompose"
description = "shout"
inputs = { wrapped = "Text" }
output = "Shout"
template = "{{ wrapped|upper }}!"

[pipe.outer]
type = "PipeSequence"
description = "nested"
inputs = { word = "Text" }
output = "Text"
steps = [
  { pipe = "seq", result = "inner" },
  { pipe = "quote_inner", result = "quoted" },
]

[pipe.quote_inner]
type = "PipeCompose"
description = "quote"
inputs = { inner = "Text" }
output = "Text"
template = "<{{ inner }}>"

[pipe.wrap_all]
type = "PipeSequence"
description = "inline batch"
inputs = { words = "Text[]" }
output = "Text"
steps = [
  { pipe = "wrap", batch_over = "words", batch_as = "word", result = "wrapped_words" },
  { pipe = "join", result = "joined" },
]

[pipe.join]
type = "PipeCompose"
description = "join"
inputs = { wrapped_words = "Text[]" }
output = "Text"
template = "{% for w in wrapped_words %}{{ w }}{% if not loop.last %},{% endif %}{% endfor %}"

[pipe.par_each]
type = "PipeParallel"
description = "each"
inputs = { word = "Text", wrapped = "Text" }
output = "Anything"
add_each_output = true
branches = [
  { pipe = "wrap", result = "left" },
  { pipe = "shout", result = "right" },
]

[pipe.par_combined]
type = "PipeParallel"
description = "combined"
inputs = { word = "Text", wrapped = "Text" }
output = "Pair"
combined_output = "Pair"
branches = [
  { pipe = "wrap", result = "left" },
  { pipe = "shout", result = "right" },
]

[pipe.par_flat]
type = "PipeParallel"
description = "combined into plain strings"
inputs = { word = "Text", wrapped = "Text" }
output = "FlatPair"
combined_output = "FlatPair"
branches = [
  { pipe = "wrap", result = "left" },
  { pipe = "shout", result = "right" },
]

[pipe.par_then_read]
type = "PipeSequence"
description = "a later step reads each branch output"
inputs = { word = "Text", wrapped = "Text" }
output = "Text"
steps = [
  { pipe = "par_each", result = "both" },
  { pipe = "read_both", result = "summary" },
]

[pipe.read_both]
type = "PipeCompose"
description = "read both branch outputs"
inputs = { left = "Text", right = "Text" }
output = "Text"
template = "{{ left }} / {{ right }}"

[pipe.par_isolated]
type = "PipeParallel"
description = "isolated"
inputs = { word = "Text" }
output = "Anything"
add_each_output = true
branches = [
  { pipe = "rewrite_twice", result = "rewritten" },
  { pipe = "wrap", result = "wrapped_once" },
]

[pipe.rewrite_twice]
type = "PipeSequence"
description = "overwrite word twice"
inputs = { word = "Text" }
output = "Text"
steps = [
  { pipe = "wrap", result = "word" },
  { pipe = "wrap", result = "word" },
]

[pipe.route_urgent]
type = "PipeCondition"
description = "bool"
inputs = { ticket = "Ticket" }
output = "Text"
expression = "ticket.urgent"
outcomes = { True = "say_urgent", False = "say_calm" }
default_outcome = "fail"

[pipe.route_owner]
type = "PipeCondition"
description = "template"
inputs = { ticket = "Ticket" }
output = "Text"
expression_template = "{{ ticket.owner }}\\n"
outcomes = { alice = "say_urgent" }
default_outcome = "say_calm"

[pipe.route_strict]
type = "PipeCondition"
description = "fail"
inputs = { ticket = "Ticket" }
output = "Text"
expression_template = "{{ ticket.title }}"
outcomes = { known = "say_calm" }
default_outcome = "fail"

[pipe.maybe]
type = "PipeSequence"
description = "continue"
inputs = { ticket = "Ticket" }
output = "Text"
steps = [
  { pipe = "say_calm", result = "calm" },
  { pipe = "route_continue", result = "decided" },
]

[pipe.route_continue]
type = "PipeCondition"
description = "continue"
inputs = { ticket = "Ticket" }
output = "Text"
expression = "ticket.title"
outcomes = { go = "say_urgent" }
default_outcome = "continue"

[pipe.say_urgent]
type = "PipeCompose"
description = "urgent"
inputs = { ticket = "Ticket" }
output = "Text"
template = "URGENT: {{ ticket.title }}"

[pipe.say_calm]
type = "PipeCompose"
description = "calm"
inputs = { ticket = "Ticket" }
output = "Text"
template = "calm: {{ ticket.title }}"

[pipe.batch_wrap]
type = "PipeBatch"
description = "batch"
inputs = { words = "Text[]" }
output = "Text[]"
branch_pipe_code = "wrap"
input_list_name = "words"
input_item_name = "word"

[pipe.batch_scratch]
type = "PipeBatch"
description = "per-item copies"
inputs = { words = "Text[]", scratch = "Text" }
output = "Text[]"
branch_pipe_code = "note_and_read"
input_list_name = "words"
input_item_name = "word"

[pipe.note_and_read]
type = "PipeSequence"
description = "write scratch then read it"
inputs = { word = "Text" }
output = "Text"
steps = [
  { pipe = "wrap", result = "scratch" },
  { pipe = "read_scratch", result = "read" },
]

[pipe.read_scratch]
type = "PipeCompose"
description = "read"
inputs = { word = "Text", scratch = "Text" }
output = "Text"
template = "{{ word }}:{{ scratch }}"

[pipe.batch_nested]
type = "PipeBatch"
description = "flatten"
inputs = { words = "Text[]", suffixes = "Text[]" }
output = "Text[]"
branch_pipe_code = "suffix_all"
input_list_name = "words"
input_item_name = "word"

[pipe.suffix_all]
type = "PipeBatch"
description = "inner"
inputs = { suffixes = "Text[]", word = "Text" }
output = "Text[]"
branch_pipe_code = "glue"
input_list_name = "suffixes"
input_item_name = "suffix"

[pipe.glue]
type = "PipeCompose"
description = "glue"
inputs = { word = "Text", suffix = "Text" }
output = "Text"
template = "{{ word }}{{ suffix }}"

[pipe.echo]
type = "PipeLLM"
description = "echo a word"
inputs = { word = "Text" }
output = "Text"
prompt = "{{ word }}"

[pipe.batch_echo]
type = "PipeBatch"
description = "batch over an LLM"
inputs = { words = "Text[]" }
output = "Text[]"
branch_pipe_code = "echo"
input_list_name = "words"
input_item_name = "word"

[pipe.list_words]
type = "PipeLLM"
description = "list words"
inputs = { topic = "Text" }
output = "Text[]"
prompt = "Words about {{ topic }}"

[pipe.empty_batches]
type = "PipeSequence"
description = "batch over whatever list_words gives"
inputs = { topic = "Text" }
output = "Text"
steps = [
  { pipe = "list_words", result = "words" },
  { pipe = "wrap", batch_over = "words", batch_as = "word", result = "inline_wrapped" },
  { pipe = "batch_wrap", result = "batch_wrapped" },
  { pipe = "count_both", result = "counts" },
]

[pipe.count_both]
type = "PipeCompose"
description = "count"
inputs = { inline_wrapped = "Text[]", batch_wrapped = "Text[]" }
output = "Text"
template = "{{ inline_wrapped.items|length }}+{{ batch_wrapped.items|length }}"

[pipe.draft_three]
type = "PipeSequence"
description = "a step with nb_output"
inputs = { topic = "Text" }
output = "Text[]"
steps = [
  { pipe = "list_words", nb_output = 3, result = "words" },
]
`;

const CONSTRUCT_BUNDLE = `
domain = "cons"

[concept.Address]
description = "An address"
[concept.Address.structure]
city = { type = "text", description = "City", required = true }
label = { type = "text", description = "Label", required = true }

[concept.Card]
description = "A card"
[concept.Card.structure]
name = { type = "text", description = "Name", required = true }
age = { type = "integer", description = "Age", required = true }
kind = { type = "text", description = "Kind", required = true }
address = { type = "concept", concept_ref = "Address", description = "Address", required = true }
tags = { type = "list", item_type = "text", description = "Tags", required = true }

[pipe.card]
type = "PipeCompose"
description = "construct"
inputs = { name = "Text", age = "Number", city = "Text", tags = "Text[]" }
output = "Card"

[pipe.card.construct]
name = { from = "name" }
age = { from = "age.number" }
kind = "person"
tags = ["a", "b"]

[pipe.card.construct.address]
city = { from = "city" }
label = { template = "{{ name }} in {{ city }}" }

[pipe.card_bad]
type = "PipeCompose"
description = "construct with a wrong type"
inputs = { name = "Text" }
output = "Address"

[pipe.card_bad.construct]
city = { from = "name" }
label = 3
`;

interface WireStuff {
  stuff_code: string;
  stuff_name: string;
  concept: { code: string; domain_code: string };
  content: unknown;
}

interface RunView {
  main: string | null;
  aliases: Record<string, string>;
  root: Record<string, { name: string; concept: string; content: unknown }>;
  codes: Record<string, string>;
}

/** The working memory of a COMPLETED run, reduced to names, concept refs and contents (order kept). */
function view(body: {
  main_stuff_name: string | null;
  pipe_output: { working_memory: { root: Record<string, WireStuff>; aliases: Record<string, string> } };
}): RunView {
  const { root, aliases } = body.pipe_output.working_memory;
  return {
    main: body.main_stuff_name,
    aliases,
    root: Object.fromEntries(
      Object.entries(root).map(([key, stuff]) => [
        key,
        {
          name: stuff.stuff_name,
          concept: `${stuff.concept.domain_code}.${stuff.concept.code}`,
          content: stuff.content,
        },
      ]),
    ),
    codes: Object.fromEntries(Object.entries(root).map(([key, stuff]) => [key, stuff.stuff_code])),
  };
}

const text = (value: string) => ({ text: value });
const texts = (...values: string[]) => ({ items: values.map(text) });
const ticket = (content: Record<string, unknown>) => ({ ticket: { concept: 'ctl.Ticket', content } });

async function run(
  app: Express,
  pipe: string,
  inputs: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<RunView> {
  const response = await request(app)
    .post('/v1/execute')
    .send({ mthds_contents: [BUNDLE], pipe_code: pipe, inputs, ...extra });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  expect(response.body.state).to.equal('COMPLETED');
  return view(response.body);
}

async function fail(
  app: Express,
  pipe: string,
  inputs: Record<string, unknown>,
  status: number,
): Promise<Record<string, unknown>> {
  const response = await request(app)
    .post('/v1/execute')
    .send({ mthds_contents: [BUNDLE], pipe_code: pipe, inputs })
    .expect(status);
  expect(response.headers['content-type']).to.equal('application/problem+json');
  expect(JSON.stringify(response.body)).to.not.match(/\bat [\w.<>]+ \(|node_modules/);
  return response.body as Record<string, unknown>;
}

/**
 * An in-process backend for batch tests: a text call echoes its prompt after a delay that shrinks with the item
 * index (`w<i>`), so later items finish first; it records the most calls in flight at once. Object calls answer an
 * empty list.
 */
function staggeredBackend(total: number): InferencePort & { maxInFlight: number; calls: string[] } {
  let inFlight = 0;
  const backend = {
    name: 'staggered',
    isMock: true,
    maxInFlight: 0,
    calls: [] as string[],
    async generateText(request: LlmRequest) {
      inFlight += 1;
      backend.maxInFlight = Math.max(backend.maxInFlight, inFlight);
      backend.calls.push(request.userPrompt);
      const index = Number(/w(\d+)/.exec(request.userPrompt)?.[1] ?? 0);
      await new Promise((resolve) => setTimeout(resolve, (total - index) * 4));
      inFlight -= 1;
      return { text: `echo ${request.userPrompt}`, usage: { model: 'staggered', input_tokens: 1, output_tokens: 1 } };
    },
    async generateObject() {
      return { object: { items: [] }, usage: { model: 'staggered', input_tokens: 1, output_tokens: 1 } };
    },
  };
  return backend;
}

describe('controllers over POST /v1/execute', () => {
  const app = buildTestApp();

  describe('PipeSequence', () => {
    it('should name each step result, let a later step read an earlier one, and output the last step (a refinement of the declared concept)', async () => {
      const result = await run(app, 'seq', { word: 'hi' });
      expect(result.main).to.equal('shouted');
      expect(result.aliases).to.deep.equal({ main_stuff: 'shouted' });
      expect(result.root).to.deep.equal({
        word: { name: 'word', concept: 'native.Text', content: text('hi') },
        wrapped: { name: 'wrapped', concept: 'native.Text', content: text('[hi]') },
        shouted: { name: 'shouted', concept: 'ctl.Shout', content: text('[HI]!') },
      });
    });

    it('should also publish the output under the request output_name (same stuff)', async () => {
      const result = await run(app, 'seq', { word: 'hi' }, { output_name: 'final' });
      expect(result.main).to.equal('final');
      expect(result.aliases).to.deep.equal({ main_stuff: 'final' });
      expect(Object.keys(result.root)).to.deep.equal(['word', 'wrapped', 'shouted', 'final']);
      expect(result.root['final']).to.deep.equal({ name: 'shouted', concept: 'ctl.Shout', content: text('[HI]!') });
      expect(result.codes['final']).to.equal(result.codes['shouted']);
    });

    it('should not pass the request output_multiplicity down to its steps (docs/runtime.md: consumed by the pipe it targets)', async () => {
      const result = await run(app, 'seq', { word: 'hi' }, { output_multiplicity: 3 });
      expect(result.main).to.equal('shouted');
      expect(result.root['shouted']!.content).to.deep.equal(text('[HI]!'));
    });

    it('should apply a step nb_output to that step pipe', async () => {
      const result = await run(app, 'draft_three', { topic: 'x' });
      expect(result.main).to.equal('words');
      expect(result.root['words']!.concept).to.equal('native.Text');
      expect((result.root['words']!.content as { items: unknown[] }).items).to.have.length(3);
    });

    it('should run an inline batch_over / batch_as step into a list under its result', async () => {
      const result = await run(app, 'wrap_all', { words: ['a', 'b', 'c'] });
      expect(result.main).to.equal('joined');
      expect(result.root).to.deep.equal({
        words: { name: 'words', concept: 'native.Text', content: texts('a', 'b', 'c') },
        wrapped_words: { name: 'wrapped_words', concept: 'native.Text', content: texts('[a]', '[b]', '[c]') },
        joined: { name: 'joined', concept: 'native.Text', content: text('[a],[b],[c]') },
      });
    });

    it('should publish a nested sequence output under the outer step result, for the next step to read', async () => {
      const result = await run(app, 'outer', { word: 'hi' });
      expect(result.main).to.equal('quoted');
      expect(Object.keys(result.root)).to.deep.equal(['word', 'wrapped', 'shouted', 'inner', 'quoted']);
      expect(result.root['inner']).to.deep.equal({ name: 'shouted', concept: 'ctl.Shout', content: text('[HI]!') });
      expect(result.codes['inner']).to.equal(result.codes['shouted']);
      expect(result.root['quoted']!.content).to.deep.equal(text('<[HI]!>'));
    });
  });

  describe('PipeParallel', () => {
    const inputs = { word: 'hi', wrapped: '[pre]' };

    it('should add each branch output under its result and combine them into the declared Anything output', async () => {
      const result = await run(app, 'par_each', inputs);
      expect(result.main).to.equal('main_stuff');
      expect(result.aliases).to.deep.equal({});
      expect(result.root).to.deep.equal({
        word: { name: 'word', concept: 'native.Text', content: text('hi') },
        wrapped: { name: 'wrapped', concept: 'native.Text', content: text('[pre]') },
        left: { name: 'left', concept: 'native.Text', content: text('[hi]') },
        right: { name: 'right', concept: 'ctl.Shout', content: text('[PRE]!') },
        main_stuff: {
          name: 'anything',
          concept: 'native.Anything',
          content: { left: text('[hi]'), right: text('[PRE]!') },
        },
      });
    });

    it('should let a later sequence step read each branch output by name', async () => {
      const result = await run(app, 'par_then_read', inputs);
      expect(result.main).to.equal('summary');
      expect(Object.keys(result.root)).to.deep.equal(['word', 'wrapped', 'left', 'right', 'both', 'summary']);
      expect(result.root['summary']!.content).to.deep.equal(text('[hi] / [PRE]!'));
    });

    it('should fill the combined_output concept fields from the branches, without adding each output', async () => {
      const result = await run(app, 'par_combined', inputs);
      expect(result.main).to.equal('main_stuff');
      expect(Object.keys(result.root)).to.deep.equal(['word', 'wrapped', 'main_stuff']);
      expect(result.root['main_stuff']).to.deep.equal({
        name: 'pair',
        concept: 'ctl.Pair',
        content: { left: text('[hi]'), right: text('[PRE]!') },
      });
    });

    it('should refuse branch contents that do not match the combined_output fields with a clean 500', async () => {
      const problem = await fail(app, 'par_flat', inputs, 500);
      expect(problem).to.include({
        status: 500,
        error_type: 'PipeOutputValidationError',
        error_domain: 'runtime',
        detail:
          "PipeParallel 'par_flat': the branch results do not match combined_output ctl.FlatPair: /left must be string; /right must be string.",
      });
    });

    it('should run each branch on its own copy of the memory', async () => {
      const result = await run(app, 'par_isolated', { word: 'hi' });
      expect(Object.keys(result.root)).to.deep.equal(['word', 'rewritten', 'wrapped_once', 'main_stuff']);
      expect(result.root['word']!.content).to.deep.equal(text('hi'));
      expect(result.root['rewritten']).to.deep.equal({ name: 'word', concept: 'native.Text', content: text('[[hi]]') });
      expect(result.root['wrapped_once']!.content).to.deep.equal(text('[hi]'));
    });
  });

  describe('PipeCondition', () => {
    it('should match the outcome key True of a boolean expression rendered Python-style', async () => {
      const result = await run(app, 'route_urgent', ticket({ title: 'go', urgent: true }));
      expect(result.main).to.equal('main_stuff');
      expect(result.root['main_stuff']).to.deep.equal({
        name: 'text',
        concept: 'native.Text',
        content: text('URGENT: go'),
      });
    });

    it('should match the outcome key False', async () => {
      const result = await run(app, 'route_urgent', ticket({ title: 'stop', urgent: false }));
      expect(result.root['main_stuff']!.content).to.deep.equal(text('calm: stop'));
    });

    it('should trim an expression_template and take its outcome', async () => {
      const result = await run(app, 'route_owner', ticket({ title: 'go', urgent: false, owner: 'alice' }));
      expect(result.root['main_stuff']!.content).to.deep.equal(text('URGENT: go'));
    });

    it('should take default_outcome when no key matches', async () => {
      const result = await run(app, 'route_owner', ticket({ title: 'go', urgent: false, owner: 'bob' }));
      expect(result.root['main_stuff']!.content).to.deep.equal(text('calm: go'));
    });

    it('should fail cleanly on a None value, naming the pipe', async () => {
      const problem = await fail(app, 'route_owner', ticket({ title: 'go', urgent: false, owner: null }), 500);
      expect(problem).to.include({
        status: 500,
        title: 'Pipe condition',
        error_type: 'PipeConditionError',
        error_domain: 'runtime',
        detail: "PipeCondition 'route_owner': the expression returned no result (rendered 'None').",
        instance: '/v1/execute',
      });
    });

    it('should fail cleanly on the fail outcome, naming the pipe, the value and the outcomes', async () => {
      const problem = await fail(app, 'route_strict', ticket({ title: 'unknown', urgent: false }), 500);
      expect(problem).to.include({
        status: 500,
        error_type: 'PipeConditionError',
        error_domain: 'runtime',
        detail:
          "PipeCondition 'route_strict' failed with outcome: fail. Evaluated expression: 'unknown' (outcomes: known).",
      });
      expect(problem).to.not.have.property('retryable');
    });

    it('should run the matched pipe on the same memory when a sequence step routes', async () => {
      const result = await run(app, 'maybe', ticket({ title: 'go', urgent: false }));
      expect(result.main).to.equal('decided');
      expect(Object.keys(result.root)).to.deep.equal(['ticket', 'calm', 'decided']);
      expect(result.root['decided']).to.deep.equal({
        name: 'decided',
        concept: 'native.Text',
        content: text('URGENT: go'),
      });
    });

    it('should go on after continue without storing anything under the step result', async () => {
      const result = await run(app, 'maybe', ticket({ title: 'stop', urgent: false }));
      expect(result.main).to.equal('calm');
      expect(result.aliases).to.deep.equal({ main_stuff: 'calm' });
      expect(Object.keys(result.root)).to.deep.equal(['ticket', 'calm']);
      expect(result.root['calm']!.content).to.deep.equal(text('calm: stop'));
    });

    it('should leave the memory as the inputs when a top-level condition continues (no main stuff)', async () => {
      const result = await run(app, 'route_continue', ticket({ title: 'stop', urgent: false }));
      expect(result.main).to.equal(null);
      expect(result.aliases).to.deep.equal({});
      expect(Object.keys(result.root)).to.deep.equal(['ticket']);
    });
  });

  describe('PipeBatch', () => {
    it('should keep input order with more items than the concurrency bound, running at most 8 at once', async () => {
      const words = Array.from({ length: 12 }, (_, index) => `w${index}`);
      const backend = staggeredBackend(words.length);
      // renders on the test's thread: this measures the batch bound, not the render threads' latency
      const result = await run(buildTestApp({}, backend, inThreadTemplateRenderer), 'batch_echo', { words });
      expect(backend.calls).to.have.length(12);
      expect(backend.maxInFlight).to.equal(8);
      expect(result.main).to.equal('main_stuff');
      expect(result.root['main_stuff']).to.deep.equal({
        name: 'text',
        concept: 'native.Text',
        content: texts(...words.map((word) => `echo ${word}`)),
      });
      expect(Object.keys(result.root)).to.deep.equal(['words', 'main_stuff']);
    });

    it('should give an empty list for an empty list, inline and as a PipeBatch', async () => {
      const result = await run(buildTestApp({}, staggeredBackend(0)), 'empty_batches', { topic: 'nothing' });
      expect(result.main).to.equal('counts');
      expect(result.root['words']!.content).to.deep.equal({ items: [] });
      expect(result.root['inline_wrapped']).to.deep.equal({
        name: 'inline_wrapped',
        concept: 'native.Text',
        content: { items: [] },
      });
      expect(result.root['batch_wrapped']).to.deep.equal({
        name: 'batch_wrapped',
        concept: 'native.Text',
        content: { items: [] },
      });
      expect(result.root['counts']!.content).to.deep.equal(text('0+0'));
    });

    it('should give a list of one for a list of one', async () => {
      const result = await run(app, 'batch_wrap', { words: ['only'] });
      expect(result.root['main_stuff']).to.deep.equal({
        name: 'text',
        concept: 'native.Text',
        content: texts('[only]'),
      });
    });

    it('should give each item its own copy of the memory', async () => {
      const result = await run(app, 'batch_scratch', { words: ['a', 'b', 'c'], scratch: 'parent' });
      expect(Object.keys(result.root)).to.deep.equal(['words', 'scratch', 'main_stuff']);
      expect(result.root['scratch']!.content).to.deep.equal(text('parent'));
      expect(result.root['main_stuff']!.content).to.deep.equal(texts('a:[a]', 'b:[b]', 'c:[c]'));
    });

    it('should flatten list outputs of the branches one level, in order', async () => {
      const result = await run(app, 'batch_nested', { words: ['a', 'b'], suffixes: ['1', '2'] });
      expect(result.root['main_stuff']).to.deep.equal({
        name: 'text',
        concept: 'native.Text',
        content: texts('a1', 'a2', 'b1', 'b2'),
      });
    });
  });
  describe('PipeCompose construct mode', () => {
    it('should build nested fields from memory paths, templates and literals', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({
          mthds_contents: [CONSTRUCT_BUNDLE],
          pipe_code: 'card',
          inputs: { name: 'Ada', age: { concept: 'Number', content: { number: 36 } }, city: 'London', tags: ['x'] },
        })
        .expect(200);
      const result = view(response.body);
      expect(result.root['main_stuff']).to.deep.equal({
        name: 'card',
        concept: 'cons.Card',
        content: {
          name: 'Ada',
          age: 36,
          kind: 'person',
          tags: ['a', 'b'],
          address: { city: 'London', label: 'Ada in London' },
        },
      });
    });

    it('should refuse a constructed value that does not match the output concept with a clean 500', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [CONSTRUCT_BUNDLE], pipe_code: 'card_bad', inputs: { name: 'Ada' } })
        .expect(500);
      expect(response.body).to.include({
        error_type: 'PipeOutputValidationError',
        error_domain: 'runtime',
        detail:
          "PipeCompose 'card_bad': the constructed output does not match concept cons.Address: /label must be string.",
      });
    });
  });
});
