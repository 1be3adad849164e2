/**
 * Bundle texts of the PipeJudge rule suites: one pipe `judge_message` in domain `inbox`, with the fields given.
 */
import { bundle } from '../harness.js';

/** The concepts the suites' outputs name: a refinement of each verdict native and a multi-form report. */
const CONCEPTS = `[concept.Urgency]
description = "Whether a message is urgent"
refines = "YesNo"

[concept.Routing]
description = "Where a message goes"
refines = "Choice"

[concept.Triage]
description = "The triage of a message"

[concept.Triage.structure]
urgent = { type = "concept", concept_ref = "YesNo", description = "Urgent?", required = true }
team = { type = "concept", concept_ref = "Routing", description = "Which team", required = true }
severity = { type = "concept", concept_ref = "Rating", description = "How severe" }
`;

/**
 * A bundle holding one PipeJudge.
 * @param fields - the pipe's fields after `type` and `description`, as TOML lines (tables after them)
 * @param inputs - the `inputs` inline table body
 * @param output - the output concept
 */
export function judgeBundle(fields: string, inputs = 'message = "Text"', output = 'YesNo'): string {
  return bundle(
    'inbox',
    `${CONCEPTS}\n[pipe.judge_message]\ntype = "PipeJudge"\ndescription = "Judges a message"\ninputs = { ${inputs} }\noutput = "${output}"\nmodel = "@default-judgment"\n${fields}`,
  );
}

/** The questions table of the multi form matching `Triage`. */
export const TRIAGE_QUESTIONS = `[pipe.judge_message.questions.urgent]
question = "Does it need an answer today?"
[pipe.judge_message.questions.team]
question = "Which team should answer?"
options = { billing = "Invoices and payments", support = "" }
[pipe.judge_message.questions.severity]
question = "How severe is it?"
levels = [{ label = "Minor" }, { label = "Major" }, { label = "Critical" }]
`;
