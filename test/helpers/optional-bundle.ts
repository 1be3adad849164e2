/**
 * The optionality fixture (docs/language.md#optionality-presence-markers-and-absences), written for these tests: a
 * brief enriched when the caller gives a
 * hint, with one pipe per controller's behaviour under absence.
 */

/** The bundle text. */
export const OPTIONAL_BUNDLE = `domain = "brief"
description = "Briefs, enriched when a hint is given"
main_pipe = "brief_flow"

[concept.Pack]
description = "A topic and its enrichment"

[concept.Pack.structure]
topic = { type = "text", description = "The topic", required = true }
enriched = { type = "text", description = "The enrichment, when there is a hint" }

[pipe.brief_flow]
type = "PipeSequence"
description = "Write a brief; enrich it first when a hint is given"
inputs = { topic = "Text", hint = "Text?" }
output = "Text"
steps = [
  { pipe = "enrich_hint", result = "enriched" },
  { pipe = "write_brief", result = "brief" },
]

[pipe.enrich_hint]
type = "PipeLLM"
description = "Enrich a hint"
inputs = { hint = "Text" }
output = "Text"
prompt = "Enrich this hint: $hint"

[pipe.write_brief]
type = "PipeCompose"
description = "Write the brief"
inputs = { topic = "Text", enriched = "Text?" }
output = "Text"
template = "Brief on {{ topic.text }}{% if enriched %}, enriched{% endif %}"

[pipe.only_enrich]
type = "PipeSequence"
description = "The enrichment alone, absent without a hint"
inputs = { hint = "Text?" }
output = "Text?"
steps = [{ pipe = "enrich_hint", result = "enriched" }]

[pipe.insist_flow]
type = "PipeSequence"
description = "Fails when no hint is given"
inputs = { hint = "Text?" }
output = "Text"
steps = [{ pipe = "insist", result = "insisted" }]

[pipe.insist]
type = "PipeCompose"
description = "Needs the hint"
inputs = { hint = "Text!" }
output = "Text"
template = "Hint: {{ hint.text }}"

[pipe.both]
type = "PipeParallel"
description = "The topic and the enrichment side by side"
inputs = { topic = "Text", hint = "Text?" }
output = "Pack"
add_each_output = true
branches = [
  { pipe = "echo_topic", result = "topic_copy" },
  { pipe = "enrich_hint", result = "enriched" },
]

[pipe.echo_topic]
type = "PipeCompose"
description = "Repeat the topic"
inputs = { topic = "Text" }
output = "Text"
template = "{{ topic.text }}"

[pipe.keep_long]
type = "PipeCondition"
description = "Keep a topic longer than three characters"
inputs = { topic = "Text" }
output = "Text?"
expression = "topic.text|length > 3"
outcomes = { True = "echo_topic" }
default_outcome = "continue"

[pipe.long_topics]
type = "PipeBatch"
description = "The long topics"
inputs = { topics = "Text[]" }
output = "Text[]"
branch_pipe_code = "keep_long"
input_list_name = "topics"
input_item_name = "topic"
`;
