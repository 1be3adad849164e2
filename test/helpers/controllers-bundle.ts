/**
 * The controllers fixture: one bundle (domain `ctl`) of small PipeCompose / PipeLLM pipes composed by PipeSequence,
 * PipeParallel, PipeCondition and PipeBatch pipes, shared by the controller unit tests and the controller integration
 * test.
 */
import type { Library } from '../../shared/mthds/index.js';
import type { FanOutChild } from '../../shared/runtime/index.js';
import { libraryOf } from './library.js';

/**
 * The bundle text. Leaves: `wrap` (`word` → `[word]`), `shout` (`wrapped` → `WRAPPED!`, concept `ctl.Shout`),
 * `quote_inner`, `join`, `read_both`, `read_scratch`, `glue`, `say_urgent` / `say_calm` (read a `ctl.Ticket`),
 * `echo` (PipeLLM, prompt `{{ word }}`), `list_words` (PipeLLM, `Text[]`); the controllers are built from them.
 */
export const CONTROLLERS_BUNDLE = `
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

[pipe.route_noted]
type = "PipeCondition"
description = "store the evaluated value"
inputs = { ticket = "Ticket" }
output = "Text"
expression = "ticket.title"
outcomes = { go = "say_urgent" }
default_outcome = "say_calm"
add_alias_from_expression_to = "decision"

[pipe.maybe]
type = "PipeSequence"
description = "continue"
inputs = { ticket = "Ticket" }
output = "Text?"
steps = [
  { pipe = "say_calm", result = "calm" },
  { pipe = "route_continue", result = "decided" },
]

[pipe.route_continue]
type = "PipeCondition"
description = "continue"
inputs = { ticket = "Ticket" }
output = "Text?"
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

[pipe.echo_seq]
type = "PipeSequence"
description = "one LLM step"
inputs = { word = "Text" }
output = "Text"
steps = [
  { pipe = "echo", result = "echoed" },
]

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

let library: Library | undefined;

/** The library of {@link CONTROLLERS_BUNDLE}, loaded once. */
export function controllersLibrary(): Library {
  library ??= libraryOf(CONTROLLERS_BUNDLE);
  return library;
}

/**
 * Request inputs holding one `ctl.Ticket` named `ticket`.
 * @param content - the ticket's fields (`title`, `urgent`, `owner`)
 */
export function ticketInputs(content: Record<string, unknown>): { ticket: { concept: string; content: unknown } } {
  return { ticket: { concept: 'ctl.Ticket', content } };
}

/**
 * An item of {@link CONTROLLERS_BUNDLE}'s `batch_wrap` as a fan-out hands it to the child queue: `ctl.wrap` on an empty
 * working memory, one pipe of the run's 10,000 started.
 * @param stepPath - the item's step path (`main/b0` for the first)
 */
export function batchWrapChild(stepPath: string): FanOutChild {
  return {
    pipeRef: 'ctl.wrap',
    memory: { root: [], aliases: [], absences: [], absentMain: null },
    outputName: null,
    params: { outputMultiplicity: null, dynamicOutputConceptRef: null, stack: ['batch_wrap'], stepPath },
    pipes: { max: 10_000, started: 1 },
  };
}
