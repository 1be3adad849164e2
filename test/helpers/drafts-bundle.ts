/**
 * The four-draft bundle of the checkpoint tests: `four`, a PipeSequence of four PipeLLM drafts each reading the
 * previous one (`draft_one` reads `topic`, prompts `Draft one on $topic`, `Draft two after $one`, …), and `each`, a
 * PipeBatch of `draft_one` over `topics`.
 * @param domain - the bundle's domain
 * @param more - further TOML appended (more pipes of the same domain)
 * @returns the bundle text, `main_pipe = "four"`
 */
export function draftsBundle(domain: string, more = ''): string {
  return `
domain = "${domain}"
main_pipe = "four"

[pipe.four]
type = "PipeSequence"
description = "Four drafts, each reading the previous one"
inputs = { topic = "Text" }
output = "Text"
steps = [
  { pipe = "draft_one", result = "one" },
  { pipe = "draft_two", result = "two" },
  { pipe = "draft_three", result = "three" },
  { pipe = "draft_four", result = "four" },
]

[pipe.draft_one]
type = "PipeLLM"
description = "First draft"
inputs = { topic = "Text" }
output = "Text"
prompt = "Draft one on $topic"

[pipe.draft_two]
type = "PipeLLM"
description = "Second draft"
inputs = { one = "Text" }
output = "Text"
prompt = "Draft two after $one"

[pipe.draft_three]
type = "PipeLLM"
description = "Third draft"
inputs = { two = "Text" }
output = "Text"
prompt = "Draft three after $two"

[pipe.draft_four]
type = "PipeLLM"
description = "Fourth draft"
inputs = { three = "Text" }
output = "Text"
prompt = "Draft four after $three"

[pipe.each]
type = "PipeBatch"
description = "A draft per topic"
inputs = { topics = "Text[]" }
output = "Text[]"
branch_pipe_code = "draft_one"
input_list_name = "topics"
input_item_name = "topic"
${more}`;
}
