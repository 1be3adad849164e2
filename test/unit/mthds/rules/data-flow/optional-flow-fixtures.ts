/**
 * Bundles of the optionality flow rules' tests (docs/language.md#optionality-presence-markers-and-absences): a sequence
 * taking an optional hint, whose
 * enrichment step lifts when the hint is absent.
 */
import { bundle } from '../harness.js';

/** The pipes every fixture shares: a plain consumer of the hint and an optional consumer of its enrichment. */
const SHARED = `[pipe.enrich_hint]
type = "PipeLLM"
description = "d"
inputs = { hint = "Text" }
output = "Text"
prompt = "Enrich $hint"

[pipe.write_brief]
type = "PipeLLM"
description = "d"
inputs = { topic = "Text", enriched = "Text?" }
output = "Text"
prompt = "About $topic @?enriched"`;

/**
 * A bundle whose sequence `brief_flow` has the given output and steps, with the shared pipes.
 * @param output - the sequence's output spec
 * @param steps - its steps, TOML inline tables
 * @param extra - more tables
 */
export function briefFlow(output: string, steps: readonly string[], extra = ''): string {
  return bundle(
    'brief',
    `main_pipe = "brief_flow"\n\n[pipe.brief_flow]\ntype = "PipeSequence"\ndescription = "d"\ninputs = { topic = "Text", hint = "Text?" }\noutput = "${output}"\nsteps = [\n  ${steps.join(',\n  ')},\n]\n\n${SHARED}\n\n${extra}`,
  ).replace('domain = "brief"\n\nmain_pipe', 'domain = "brief"\nmain_pipe');
}
