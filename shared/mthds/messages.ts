/**
 * The wording of every validation message of the language core, keyed by a stable message code
 * (CONTRIBUTING.md#7-messages-come-from-one-table): each message says where (bundle, concept or pipe, and field), what
 * is wrong (the offending value) and what
 * is allowed. Contract tests that compare wording read it from here.
 *
 * @see docs/rules.md, spec §2.6
 */

const quoted = (names: readonly string[]): string => names.map((name) => `'${name}'`).join(', ');
const listOr = (names: readonly string[], none = 'none'): string => (names.length > 0 ? names.join(', ') : none);
const plural = (count: number, one: string, many: string): string => (count === 1 ? one : many);

/** Message builders keyed by message code. */
export const MESSAGES = {
  verdict: (p: { messages: readonly string[]; more: number }) =>
    `Validation error(s): ${p.messages.join(' | ')}${p.more > 0 ? ` (and ${p.more} more)` : ''}`,
  toml_syntax: (p: { source: string | null; line: number; column: number; reason: string }) =>
    `TOML syntax error (${p.source ?? 'bundle'}, line ${p.line}, column ${p.column}): ${p.reason}`,
  toml_too_deep: (p: { source: string | null; line: number; column: number; max: number }) =>
    `TOML nesting too deep (${p.source ?? 'bundle'}, line ${p.line}, column ${p.column}): nesting depth exceeds ${p.max} (MAX_TOML_DEPTH); dotted-key segments, [table] headers, inline tables and arrays each add a level.`,
  invalid_bundle: (p: { source: string | null; problems: readonly string[] }) =>
    `Invalid bundle${p.source === null ? '' : ` ${p.source}`}: ${p.problems.join('; ')}`,
  no_bundle: () => 'No bundle was given: send at least one .mthds content.',
  empty_bundle: () => 'The bundle is empty: a bundle needs at least a header line `domain = "<domain_code>"`.',
  schema_issue: (p: { where: string; field: string; problem: string }) =>
    `${p.where}, field '${p.field}': ${p.problem}.`,
  schema_unknown_keys: (p: { where: string; keys: readonly string[]; allowed: readonly string[] | undefined }) =>
    `${p.where}: unknown ${plural(p.keys.length, 'key', 'keys')} ${quoted(p.keys)}${p.allowed ? ` (allowed: ${p.allowed.join(', ')})` : ''}.`,
  pipe_not_a_table: (p: { pipe: string }) =>
    `Pipe '${p.pipe}': a pipe must be a table ([pipe.${p.pipe}]) with type, description and output.`,
  unknown_pipe_type: (p: { pipe: string; value: string; allowed: readonly string[] }) =>
    `Pipe '${p.pipe}', field 'type': '${p.value}' is not a pipe type (allowed: ${p.allowed.join(', ')}).`,
  missing_pipe_type: (p: { pipe: string; allowed: readonly string[]; stray: readonly string[] }) =>
    `Pipe '${p.pipe}' has no 'type': set one of ${p.allowed.join(', ')}. Without 'type' a pipe is a contract-only signature, which holds only description, inputs, output and signature_for, not ${quoted(p.stray)}.`,
  retired_signature_type: (p: { pipe: string }) =>
    `Pipe '${p.pipe}', field 'type': 'PipeSignature' is no longer a pipe type. Delete the \`type\` line: a pipe table without \`type\` holding only description, inputs, output and signature_for is a contract-only signature.`,

  invalid_domain_code: (p: { domain: string }) =>
    `Domain '${p.domain}' is not a valid domain code: use snake_case segments joined by dots (e.g. 'legal' or 'legal.contracts').`,
  reserved_domain: (p: { domain: string; segment: string; reserved: readonly string[] }) =>
    `Domain '${p.domain}' starts with the reserved segment '${p.segment}' (reserved: ${p.reserved.join(', ')}); choose another domain name.`,
  main_pipe_not_defined: (p: { mainPipe: string; pipes: readonly string[] }) =>
    `main_pipe '${p.mainPipe}' is not a pipe of this bundle (its pipes: ${listOr(p.pipes)}); define [pipe.${p.mainPipe}] here or fix the name.`,
  namespaced_code: (p: { kind: 'Concept' | 'Pipe'; code: string; bare: string }) =>
    `${p.kind} code '${p.code}' is qualified with a domain; a bundle declares its ${p.kind.toLowerCase()}s by bare code ('${p.bare}'), the bundle's domain qualifies them.`,
  main_pipe_qualified: (p: { mainPipe: string; bare: string }) =>
    `main_pipe '${p.mainPipe}' is qualified with a domain; main_pipe names a pipe of this bundle by its bare code: '${p.bare}'.`,
  concept_code_casing: (p: { code: string; suggestion: string }) =>
    `Concept code '${p.code}' must be PascalCase (a capital letter, then letters and digits), e.g. '${p.suggestion}'.`,
  pipe_code_casing: (p: { code: string; suggestion: string }) =>
    `Pipe code '${p.code}' must be snake_case (lowercase letters, digits and underscores, starting with a letter), e.g. '${p.suggestion}'.`,
  input_name_casing: (p: { pipe: string; name: string; suggestion: string }) =>
    `Pipe '${p.pipe}': input name '${p.name}' must be snake_case (dotted snake_case segments allowed), e.g. '${p.suggestion}'.`,
  dotted_input_name: (p: { pipe: string; field: string; name: string; root: string; rest: string }) =>
    `Pipe '${p.pipe}', ${p.field} '${p.name}': dotted input names are obsolete; declare the root input '${p.root}' and read $${p.root}.${p.rest} in the template, or bind the field with a binding step.`,
  strict_snake_case: (p: { kind: 'pipe code' | 'input name'; pipe: string; name: string }) =>
    `Pipe '${p.pipe}': ${p.kind} '${p.name}' has a double, leading or trailing underscore; the reference SDKs expect words joined by single underscores.`,
  native_redeclaration: (p: { code: string }) =>
    `Concept '${p.code}' redeclares the native concept native.${p.code}: remove [concept.${p.code}] and use '${p.code}' directly.`,
  refines_and_structure: (p: { code: string; refines: string }) =>
    `Concept '${p.code}' sets both refines ('${p.refines}') and structure: a refining concept takes its parent's structure. Keep one of them.`,
  duplicate_code: (p: { kind: 'concept' | 'pipe'; ref: string; first: string | null }) =>
    `${p.kind === 'pipe' ? 'Pipe' : 'Concept'} '${p.ref}' is declared twice${p.first ? ` (first in ${p.first})` : ''}: bundles of one domain share one namespace. Rename or remove one.`,
  signature_contract_mismatch: (p: { ref: string; other: string | null }) =>
    `Pipe '${p.ref}' is declared both as a signature and as a concrete pipe${p.other ? ` (the other in ${p.other})` : ''}, with different inputs or output: a signature and its implementation must declare the same inputs and output.`,
  domain_shape: (p: { domain: string; depth: number; longest: string }) =>
    `Domain '${p.domain}' ${p.depth > 3 ? `has ${p.depth} segments` : `has a segment of more than 4 words ('${p.longest}')`}; keep domain codes to 1–3 segments of 1–4 words.`,
  extract_input_concept: (p: { pipe: string; input: string; concept: string }) =>
    `Pipe '${p.pipe}': a PipeExtract reads a Document or an Image, but input '${p.input}' is '${p.concept}'.`,

  field_name_invalid: (p: { concept: string; field: string; reason: string }) =>
    `Concept '${p.concept}', field '${p.field}': ${p.reason}; rename the field.`,
  field_needs_type: (p: { concept: string; field: string }) =>
    `Concept '${p.concept}', field '${p.field}': set a type (text, integer, number, boolean, date, datetime, time, list, dict or concept), or non-empty choices for an enum field.`,
  field_choices_with_type: (p: { concept: string; field: string; type: string; strict: boolean }) =>
    `Concept '${p.concept}', field '${p.field}': choices make an enum field, so type = "${p.type}" must be removed${p.strict ? ' (strict mode)' : ' (only type = "text" is tolerated with choices)'}.`,
  field_dict_types: (p: { concept: string; field: string }) =>
    `Concept '${p.concept}', field '${p.field}': a dict field needs non-empty key_type and value_type (e.g. key_type = "text", value_type = "number").`,
  field_concept_ref: (p: {
    concept: string;
    field: string;
    key: 'concept_ref' | 'item_concept_ref';
    missing: boolean;
  }) =>
    p.key === 'concept_ref'
      ? `Concept '${p.concept}', field '${p.field}': ${p.missing ? 'type = "concept" needs concept_ref = "<Concept>"' : 'concept_ref is only allowed with type = "concept"'}.`
      : `Concept '${p.concept}', field '${p.field}': ${p.missing ? 'item_type = "concept" needs item_concept_ref = "<Concept>"' : 'item_concept_ref is only allowed with item_type = "concept"'}.`,
  field_default_value: (p: { concept: string; field: string; value: string; problem: string }) =>
    `Concept '${p.concept}', field '${p.field}': default_value ${p.value} ${p.problem}.`,
  field_required_with_default: (p: { concept: string; field: string; value: string }) =>
    `Concept validation error at 'concept.${p.concept}.structure.${p.field}': Value error, a field cannot be both required and have a default_value (${p.value}): a default makes the field's absence legal. Remove required = true or the default_value.`,
  field_list_item_type: (p: { concept: string; field: string }) =>
    `Concept '${p.concept}', field '${p.field}': a list without item_type is read as a list of texts; set item_type to say what the items are.`,

  template_private_name: (p: { pipe: string; label: string; name: string; allowed: readonly string[] }) =>
    `Pipe '${p.pipe}': the ${p.label} of pipe '${p.pipe}' reads '${p.name}', a name starting with an underscore; templates may read only an input's metadata fields (${p.allowed.join(', ')}) and its content. Remove the read.`,
  llm_undeclared_variables: (p: { pipe: string; names: readonly string[]; declared: readonly string[] }) =>
    `Pipe '${p.pipe}': the prompt uses ${quoted(p.names)}, which ${plural(p.names.length, 'is not a declared input', 'are not declared inputs')} (declared: ${listOr(p.declared)}). Add ${plural(p.names.length, 'it', 'them')} to inputs or remove ${plural(p.names.length, 'it', 'them')} from the prompt.`,
  llm_unused_inputs: (p: { pipe: string; names: readonly string[] }) =>
    `Pipe '${p.pipe}': ${plural(p.names.length, 'input', 'inputs')} ${quoted(p.names)} ${plural(p.names.length, 'is', 'are')} declared but used neither in prompt nor in system_prompt. Reference ${plural(p.names.length, 'it', 'them')} (e.g. $${p.names[0] ?? 'name'} or @${p.names[0] ?? 'name'}) or remove ${plural(p.names.length, 'it', 'them')} from inputs.`,
  llm_reasoning_exclusive: (p: { pipe: string; field: string }) =>
    `Pipe '${p.pipe}', field '${p.field}': set reasoning_effort or reasoning_budget, not both.`,
  llm_output_image: (p: { pipe: string; output: string }) =>
    `Pipe '${p.pipe}': a PipeLLM cannot output an image ('${p.output}'); generate images with a PipeImgGen.`,
  func_name_empty: (p: { pipe: string }) =>
    `Pipe '${p.pipe}', field 'function_name': name a registered function (it is empty).`,
  img_gen_quality_steps: (p: { pipe: string }) => `Pipe '${p.pipe}', field 'model': set quality or nb_steps, not both.`,
  extract_one_input: (p: { pipe: string; count: number }) =>
    `Pipe '${p.pipe}': a PipeExtract takes exactly one input (a Document or an Image), not ${p.count}.`,
  extract_output_pages: (p: { pipe: string; output: string }) =>
    `Pipe '${p.pipe}': a PipeExtract outputs "Page[]", not "${p.output}".`,
  model_reference_unknown: (p: {
    pipe: string;
    field: string;
    category: string;
    kind: string;
    name: string;
    suggestions: readonly string[];
  }) =>
    `Pipe '${p.pipe}', field '${p.field}': ${p.category} ${p.kind} '${p.name}' was not found in the model deck.${p.suggestions.length > 0 ? ` Did you mean ${quoted(p.suggestions)}?` : ''} Name one of the deck's presets, aliases or waterfalls, or a model handle.`,
  search_output: (p: { pipe: string; output: string }) =>
    `Pipe '${p.pipe}': a PipeSearch outputs "SearchResult" (or a concept refining it), or one object of a structured concept, not "${p.output}".`,
  structure_one_input: (p: { pipe: string; count: number }) =>
    `Pipe '${p.pipe}': a PipeStructure takes exactly one input (the Text to structure), not ${p.count}.`,
  structure_input_text: (p: { pipe: string; input: string; concept: string }) =>
    `Pipe '${p.pipe}': a PipeStructure structures a Text (or a concept refining it), but input '${p.input}' is '${p.concept}'.`,
  structure_output_not_text: (p: { pipe: string; output: string }) =>
    `Pipe '${p.pipe}': a PipeStructure outputs a structured concept, not the text concept '${p.output}'; use a PipeLLM for text.`,
  binding_step_invalid: (p: { pipe: string; field: string; value: string; problem: string }) =>
    `Pipe '${p.pipe}', field '${p.field}': ${JSON.stringify(p.value)} ${p.problem}.`,
  binding_path_unresolved: (p: {
    pipe: string;
    field: string;
    path: string;
    segment: string;
    within: string;
    available: readonly string[];
  }) =>
    `Pipe '${p.pipe}', field '${p.field}': the path '${p.path}' does not resolve: '${p.segment}' is not a bindable field of '${p.within}' (fields: ${listOr(p.available)}).`,
  judge_prompt_empty: (p: { pipe: string }) =>
    `Pipe '${p.pipe}': a PipeJudge needs a non-empty prompt (the evidence the questions are asked about).`,
  judge_question_form: (p: { pipe: string; both: boolean }) =>
    `Pipe '${p.pipe}': a PipeJudge sets exactly one of question (one question) and questions (named questions) (${p.both ? 'both are set' : 'neither is set'}).`,
  judge_no_questions: (p: { pipe: string }) =>
    `Pipe '${p.pipe}': the questions table of a PipeJudge needs at least one question ([pipe.${p.pipe}.questions.<name>]).`,
  judge_question_empty: (p: { pipe: string; field: string }) => `Pipe '${p.pipe}': ${p.field} must not be empty.`,
  judge_multi_kind_field: (p: { pipe: string; field: string }) =>
    `Pipe '${p.pipe}': with named questions, '${p.field}' belongs in each question's table (questions.<name>.${p.field}), not on the pipe.`,
  judge_question_name: (p: { pipe: string; name: string; reason: string }) =>
    `Pipe '${p.pipe}': question name '${p.name}' is not a valid field name (${p.reason}); the names are the fields of the output concept.`,
  judge_options_and_levels: (p: { pipe: string; where: string }) =>
    `Pipe '${p.pipe}': ${p.where} sets both options (a choice) and levels (a rating); keep one.`,
  judge_yes_no_field: (p: { pipe: string; where: string; field: string; kind: string }) =>
    `Pipe '${p.pipe}': ${p.where} is a ${p.kind} question; '${p.field}' applies to yes/no questions only.`,
  judge_options: (p: { pipe: string; field: string; problem: string }) => `Pipe '${p.pipe}': ${p.field}: ${p.problem}.`,
  judge_levels: (p: { pipe: string; field: string; problem: string }) => `Pipe '${p.pipe}': ${p.field}: ${p.problem}.`,
  judge_criteria: (p: { pipe: string; field: string }) =>
    `Pipe '${p.pipe}': ${p.field} must not be empty (criteria describe what a yes and a no mean).`,
  judge_threshold: (p: { pipe: string; field: string; value: number }) =>
    `Pipe '${p.pipe}': ${p.field} must be strictly between 0 and 1, not ${p.value}.`,
  judge_question_media: (p: { pipe: string; field: string; input: string; concept: string }) =>
    `Pipe '${p.pipe}': ${p.field} reads input '${p.input}' (${p.concept}); a question is plain text, so images and documents belong in the prompt.`,
  judge_unused_inputs: (p: { pipe: string; names: readonly string[] }) =>
    `Pipe '${p.pipe}': ${plural(p.names.length, 'input', 'inputs')} ${quoted(p.names)} ${plural(p.names.length, 'is', 'are')} declared but used neither in the prompt nor in a question.`,
  judge_single_output: (p: { pipe: string; output: string; native: string; reason: string }) =>
    `Pipe '${p.pipe}': a PipeJudge asking one ${p.reason} question outputs "${p.native}" (or a concept refining it), not "${p.output}".`,
  judge_multi_output: (p: { pipe: string; output: string; problem: string }) =>
    `Pipe '${p.pipe}': the output "${p.output}" of a PipeJudge with named questions must be a structured concept with one concept field per question: ${p.problem}.`,
  judge_model_missing: (p: { pipe: string }) =>
    `JudgmentModelMissingError: Pipe '${p.pipe}' names no judgment model and the model deck's [judgment] category has no choice_default; set model (e.g. "@default-judgment").`,
  judge_input_capability: (p: { pipe: string; input: string; kind: string; model: string; reads: readonly string[] }) =>
    `PipeJudgeInputCapabilityError: PipeJudge '${p.pipe}' judges input '${p.input}', which is ${p.kind === 'image' ? 'an' : 'a'} ${p.kind}, and its judgment model '${p.model}' does not read ${p.kind}s: it reads ${p.reads.join(', ')}. Name a judgment model that reads ${p.kind}s, or turn the ${p.kind} into text with a step before this one.`,
  doc_gen_output_document: (p: { pipe: string; output: string }) =>
    `Pipe '${p.pipe}': a PipeDocGen outputs a Document (or a concept refining it), not '${p.output}' (PipeDocGenFactoryError).`,
  doc_gen_output_single: (p: { pipe: string; output: string }) =>
    `Pipe '${p.pipe}': a PipeDocGen prints one file; its output '${p.output}' must not be a list (write "Document").`,
  doc_gen_template_not_pdf: (p: { pipe: string; format: string }) =>
    `Pipe '${p.pipe}': an HTML template prints a pdf only; a ${p.format} PipeDocGen prints its layout or a template_file (.${p.format}).`,
  doc_gen_template_exclusive: (p: { pipe: string }) =>
    `Pipe '${p.pipe}': a PipeDocGen sets at most one of template and template_file, not both.`,
  doc_gen_pptx_template_file: (p: { pipe: string }) =>
    `Pipe '${p.pipe}': a pptx PipeDocGen needs a template_file (a .pptx of the bundle); pptx has no layout.`,
  doc_gen_template_file_path: (p: { pipe: string; path: string; problem: string }) =>
    `Pipe '${p.pipe}': template_file '${p.path}' ${p.problem}.`,
  doc_gen_template_file_string: (p: { pipe: string; path: string }) =>
    `Pipe '${p.pipe}': template_file '${p.path}' cannot be read: the bundle came without files beside its .mthds (sent as text in mthds_contents, which has no directory, or a package holding no other file); send the bundle with its files (bundle_b64, files) or as a method_ref whose package holds the file, or use a template.`,
  doc_gen_template_file_missing: (p: { pipe: string; path: string; files: readonly string[] }) =>
    `Pipe '${p.pipe}': template_file '${p.path}' names no file of the bundle (its files: ${listOr(p.files.slice(0, 20))}).`,
  doc_gen_engine_missing: (p: { pipe: string; reason: string }) =>
    `Pipe '${p.pipe}': no doc_gen engine can print it: ${p.reason} (DocGenEngineMissingError).`,
  doc_gen_field_path: (p: {
    pipe: string;
    field: string;
    path: string;
    segment: string;
    concept: string;
    available: readonly string[];
  }) =>
    `Pipe '${p.pipe}', ${p.field}: '${p.path}' reads '${p.segment}', which concept '${p.concept}' does not have (fields: ${listOr(p.available)}).`,
  compose_mode: (p: { pipe: string; both: boolean }) =>
    `Pipe '${p.pipe}': a PipeCompose sets exactly one of template and construct (${p.both ? 'both are set' : 'neither is set'}).`,
  compose_single_output: (p: { pipe: string; output: string }) =>
    `Pipe '${p.pipe}': a PipeCompose has a single output, without [] or [N] ('${p.output}').`,
  construct_from_and_template: (p: { pipe: string; field: string }) =>
    `Pipe '${p.pipe}', field '${p.field}': a construct field takes from or template, not both.`,
  template_undeclared_variables: (p: {
    pipe: string;
    field: string;
    names: readonly string[];
    declared: readonly string[];
  }) =>
    `Pipe '${p.pipe}', field '${p.field}': uses ${quoted(p.names)}, which ${plural(p.names.length, 'is not a declared input', 'are not declared inputs')} (declared: ${listOr(p.declared)}). Add ${plural(p.names.length, 'it', 'them')} to inputs.`,
  template_invalid: (p: { pipe: string; field: string; reason: string }) =>
    `Pipe '${p.pipe}', field '${p.field}': ${p.reason}`,
  template_over_budget: (p: { pipe: string; field: string; call: string; kib: number }) =>
    `Pipe '${p.pipe}', field '${p.field}': Template budget: ${p.call} would render more than TEMPLATE_MAX_OUTPUT_KIB (${p.kib} KiB) allows.`,
  sequence_no_steps: (p: { pipe: string }) => `Pipe '${p.pipe}': a PipeSequence needs at least one step in steps.`,
  sub_pipe_output_override: (p: { pipe: string; at: string }) =>
    `Pipe '${p.pipe}', ${p.at}: set nb_output or multiple_output, not both.`,
  multiplicity_out_of_range: (p: { pipe: string; field: string; written: string; max: number }) =>
    `Pipe '${p.pipe}', ${p.field}: '${p.written}' asks for a count outside 1 to ${p.max.toLocaleString('en-US')} (MAX_MULTIPLICITY). Ask for at most ${p.max.toLocaleString('en-US')} items, or for a variable list ('[]').`,
  sub_pipe_batch_pair: (p: { pipe: string; at: string; same: boolean }) =>
    `Pipe '${p.pipe}', ${p.at}: ${p.same ? 'batch_as must differ from batch_over' : 'batch_over and batch_as go together: set both (the list to iterate over and the name of each item) or neither'}.`,
  parallel_output_mode: (p: { pipe: string }) =>
    `Pipe '${p.pipe}': a PipeParallel needs add_each_output = true, a combined_output concept, or an output that holds the branch results (Composite, or a concept whose fields are the results).`,
  parallel_combined_output_retired: (p: { pipe: string; concept: string }) =>
    `Pipe '${p.pipe}': combined_output was removed; a PipeParallel combines its branches into its output. Delete combined_output and declare output = "${p.concept}" (a Composite, or a concept whose fields are the branch results).`,
  parallel_output_multiplicity: (p: { pipe: string; output: string }) =>
    `Pipe '${p.pipe}': the output '${p.output}' of a PipeParallel is one combination of its branches; it cannot be a list.`,
  parallel_output_concept: (p: {
    pipe: string;
    output: string;
    missing: string[];
    unknown: string[];
    structured: boolean;
  }) =>
    p.structured
      ? `Pipe '${p.pipe}': the output '${p.output}' cannot hold the branch results${p.missing.length > 0 ? `; required fields no branch fills: ${p.missing.join(', ')}` : ''}${p.unknown.length > 0 ? `; results it has no field for: ${p.unknown.join(', ')}` : ''}.`
      : `Pipe '${p.pipe}': the output '${p.output}' of a PipeParallel must be Composite or a structured concept whose fields are the branch results (${p.unknown.join(', ')}).`,
  parallel_branch_result: (p: { pipe: string; at: string; result: string | undefined }) =>
    `Pipe '${p.pipe}', ${p.at}: ${p.result === undefined ? 'every branch needs a result name' : `result '${p.result}' is already used by another branch; results must be unique`}.`,
  condition_expression: (p: { pipe: string; both: boolean }) =>
    `Pipe '${p.pipe}': a PipeCondition sets exactly one of expression_template and expression (${p.both ? 'both are set' : 'neither is set'}).`,
  condition_outcomes_empty: (p: { pipe: string }) =>
    `Pipe '${p.pipe}': outcomes needs at least one entry (outcome key = pipe code).`,
  batch_list_name: (p: { pipe: string; list: string; inputs: readonly string[] }) =>
    `Pipe '${p.pipe}', field 'input_list_name': '${p.list}' must be one of the declared inputs (declared: ${listOr(p.inputs)}).`,
  batch_item_name: (p: { pipe: string; item: string; problem: 'empty' | 'list' | 'input' }) =>
    `Pipe '${p.pipe}', field 'input_item_name': ${
      p.problem === 'empty'
        ? 'must not be empty'
        : p.problem === 'list'
          ? `'${p.item}' must differ from input_list_name`
          : `'${p.item}' must not also be a declared input`
    }.`,

  reference_kind: (p: {
    where: string;
    field: string;
    ref: string;
    expected: 'pipe' | 'concept' | 'single concept';
  }) =>
    p.expected === 'pipe'
      ? `${p.where}, field '${p.field}': '${p.ref}' is not a pipe reference (expected a snake_case pipe code, optionally 'domain.' in front).`
      : `${p.where}, field '${p.field}': '${p.ref}' is not a concept reference (expected a PascalCase code, optionally 'domain.' in front${p.expected === 'concept' ? ' and [] or [N] after' : ', without [] or [N]'}).`,
  retired_native: (p: { pipe: string; field: string; code: string; instead: string }) =>
    `Pipe '${p.pipe}', field '${p.field}': the native '${p.code}' was removed from the language; use '${p.instead}' instead.`,
  unresolved_concept: (p: { where: string; field: string; ref: string; reason: string }) =>
    `${p.where}, field '${p.field}': ${p.reason}.`,
  unresolved_pipe: (p: { pipe: string; field: string; reason: string }) =>
    `Pipe '${p.pipe}', field '${p.field}': ${p.reason}.`,
  unresolved_package: (p: { pipe: string; field: string; ref: string; packageRef: string }) =>
    `Pipe '${p.pipe}', field '${p.field}': '${p.ref}' calls package '${p.packageRef}', which is not loaded: cross-package references resolve among the bundles of the request (or, for a method_ref, the packages it references, fetched by address). Send that package's bundles too, or run the method by method_ref.`,
  unexported_pipe: (p: { pipe: string; field: string; ref: string; code: string; domain: string }) =>
    `Pipe '${p.pipe}', field '${p.field}': '${p.ref}' calls pipe '${p.code}', which is not exported by domain '${p.domain}' of its package. Add it to [exports.${p.domain}] pipes in that package's METHODS.toml, or call an exported pipe.`,
  hint_unknown_key: (p: { where: string; key: string }) =>
    `${p.where}: hint '${p.key}' is not defined by the standard (hint keys: intent); it is kept but means nothing.`,
  hint_unknown_intent: (p: { where: string; word: string; words: readonly string[] }) =>
    `${p.where}: intent '${p.word}' is not an intent word (${p.words.join(', ')}); it is ignored.`,
  hint_inapplicable_intent: (p: { where: string; word: string; kind: string }) =>
    `${p.where}: intent '${p.word}' does not apply to a ${p.kind} value (prose and label fit text, rating and quantity fit numbers); it is ignored.`,
  refinement_cycle: (p: { ref: string; chain: readonly string[] }) =>
    `Concept '${p.ref}' refines itself through ${p.chain.join(' → ')}: refinement must not loop. Break the cycle.`,
  concept_ref_cycle: (p: { ref: string; chain: readonly string[] }) =>
    `Concept '${p.ref}' contains itself through ${p.chain.join(' → ')}: structures must not nest in a loop. Break the cycle.`,
  concept_too_deep: (p: { concept: string; depth: number; chain: readonly string[]; max: number }) =>
    `Concept '${p.concept}' nests ${p.depth} concepts deep (${p.chain.join(' → ')}${p.chain.length < p.depth ? ' → …' : ''}), over ${p.max} (MAX_CONCEPT_DEPTH): a chain of concepts, each naming the next through a structure field or refines, is at most ${p.max} long. Flatten the structure.`,
  concept_too_many_fields: (p: { concept: string; fields: number; max: number }) =>
    `Concept '${p.concept}' expands to ${p.fields >= Number.MAX_SAFE_INTEGER ? 'at least ' : ''}${p.fields.toLocaleString('en-US')} fields (each nested concept's fields counted where it is used), over ${p.max.toLocaleString('en-US')} (MAX_CONCEPT_FIELDS). Use fewer or smaller nested concepts.`,

  flow_concept: (p: { pipe: string; at: string; input: string; expected: string; origin: string; produced: string }) =>
    `Pipe '${p.pipe}', ${p.at}: input '${p.input}' expects '${p.expected}', but ${p.origin} holds '${p.produced}', which is neither that concept nor a refinement of it.`,
  flow_multiplicity: (p: {
    pipe: string;
    at: string;
    input: string;
    expected: string;
    origin: string;
    produced: string;
  }) =>
    `Pipe '${p.pipe}', ${p.at}: input '${p.input}' expects '${p.expected}', but ${p.origin} holds '${p.produced}' (a different number of items).`,
  controller_output: (p: {
    pipe: string;
    output: string;
    child: string;
    produced: string;
    role: 'branch pipe' | 'outcome pipe';
  }) =>
    `Pipe '${p.pipe}' declares output '${p.output}', but its ${p.role} '${p.child}' produces '${p.produced}', which is neither that concept nor a refinement of it.`,
  sequence_output: (p: { pipe: string; output: string; step: string; produced: string }) =>
    `Pipe '${p.pipe}' declares output '${p.output}', but its last step '${p.step}' produces '${p.produced}', which is neither that concept nor a refinement of it. Set output = "${p.produced}" or change the last step.`,
  controller_inputs: (p: {
    pipe: string;
    kind: 'steps' | 'branches' | 'outcome pipes' | 'branch pipe';
    names: readonly string[];
  }) =>
    `Pipe '${p.pipe}': its ${p.kind} need ${quoted(p.names)}, which ${
      p.kind === 'steps'
        ? `${plural(p.names.length, 'is', 'are')} neither a declared input nor produced by an earlier step`
        : plural(p.names.length, 'is not a declared input', 'are not declared inputs')
    }. Add ${plural(p.names.length, 'it', 'them')} to the inputs of '${p.pipe}'.`,

  optional_marker_plural: (p: { pipe: string; slot: string; spec: string; marker: string }) =>
    `Pipe '${p.pipe}', ${p.slot}: '${p.spec}'. The presence marker '${p.marker}' cannot be combined with multiplicity: a plural slot is never absent — when nothing is found, it is the empty list. Remove the marker (a count of one, 'X[1]${p.marker}', is the single form and may carry it).`,
  optional_marker_force_output: (p: { pipe: string; spec: string }) =>
    `Pipe '${p.pipe}', output: '${p.spec}'. The force marker '!' applies to inputs only: a pipe cannot assert its own output into existence. Write '${p.spec.slice(0, -1)}' or '${p.spec.slice(0, -1)}?'.`,
  optional_marker_concept: (p: { concept: string; field: string; spec: string }) =>
    `Concept '${p.concept}', ${p.field}: '${p.spec}'. Presence markers ('?', '!') belong to a pipe's inputs and output, never to a concept, its refines or its structure fields. Remove the marker.`,
  optional_output_required: (p: { pipe: string; output: string; via: string }) =>
    `Pipe '${p.pipe}' can end on the 'continue' outcome (${p.via}), which produces no value, but its output '${p.output}' is not optional. Declare the output '${p.output}?'.`,
  optional_not_handled: (p: { pipe: string; output: string; origin: string }) =>
    `Pipe '${p.pipe}': its output '${p.output}' may be absent (${p.origin}) but is not declared optional. Declare the output '${p.output}?', force the input that may be absent with '!', or absorb the absence in a step taking it as '?'.`,
  optional_branch_required_field: (p: { pipe: string; branch: string; field: string; origin: string }) =>
    `Pipe '${p.pipe}': branch '${p.branch}' may be absent (${p.origin}) but feeds the required field '${p.field}' of the output. Make the field not required, or make the branch's value always present.`,
  optional_input_unguarded: (p: { pipe: string; template: string; name: string }) =>
    `Pipe '${p.pipe}', ${p.template}: the optional input '${p.name}' is read without a guard. Write @?${p.name}, or read it inside {% if ${p.name} %} … {% endif %} or '… if ${p.name} else …'.`,
  optional_force_redundant: (p: { pipe: string; input: string; within: string }) =>
    `Pipe '${p.pipe}', input '${p.input}': the force marker '!' can never fire, since '${p.input}' is always present where '${p.pipe}' runs (${p.within}). Remove the marker.`,
  input_presence_vacuous: (p: { pipe: string; input: string; concept: string }) =>
    `Pipe '${p.pipe}', input '${p.input}': the method input must be supplied, but its concept '${p.concept}' declares no required field, so the empty object satisfies it. Mark the input '?', or give the concept a required field.`,

  resolve_concept_ambiguous: (p: { ref: string; candidates: readonly string[] }) =>
    `Concept '${p.ref}' is declared in several domains: write ${p.candidates.map((ref) => `'${ref}'`).join(' or ')} instead of the bare name.`,
  resolve_concept_malformed: (p: { ref: string }) =>
    `'${p.ref}' is not a concept reference: write a PascalCase code such as 'Text', or 'domain.Code'.`,
  resolve_concept_missing: (p: { ref: string; declared: readonly string[]; near: string | undefined }) =>
    `Concept '${p.ref}' is neither native nor declared by a loaded bundle (declared: ${listOr(p.declared)}).${p.near === undefined ? '' : ` Did you mean '${p.near}'?`}`,
  resolve_pipe_ambiguous: (p: { ref: string; candidates: readonly string[] }) =>
    `Pipe '${p.ref}' is defined in several domains: write ${p.candidates.map((ref) => `'${ref}'`).join(' or ')} instead of the bare code.`,
  resolve_pipe_missing: (p: { ref: string; pipes: readonly string[] }) =>
    `Pipe '${p.ref}' is not defined by the loaded bundles (pipes: ${listOr(p.pipes)}).`,
} as const;

/** A message code. */
export type MessageCode = keyof typeof MESSAGES;
