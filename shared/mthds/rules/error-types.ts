/**
 * The `error_type` values a validation item of the language core may carry (spec §2.6, docs/api.md#validation-items).
 *
 * The reference's `PipeValidationErrorType` and `PipeFactoryErrorType` come first (an unknown pipe `type` is the
 * reference's `unknown_pipe_type`), then the schema-check types (named after the Pydantic error types the reference
 * surfaces), then the types of this runtime's own rules for checks the reference reports without a subtype.
 *
 * @see spec §2.6, docs/api.md#validation-items
 */

/** Every `error_type` the language core emits, as a constant list. */
export const VALIDATION_ERROR_TYPES = [
  'missing_input_variable',
  'extraneous_input_variable',
  'input_stuff_spec_mismatch',
  'inadequate_output_concept',
  'inadequate_output_multiplicity',
  'circular_dependency_error',
  'llm_output_cannot_be_image',
  'invalid_pipe_code_syntax',
  'unknown_pipe_type',
  'missing_pipe_type',
  'batch_item_name_collision',
  'optional_marker_invalid',
  'optional_not_handled',
  'optional_output_required',
  'optional_input_unguarded',
  'optional_branch_required_field',
  'optional_force_redundant',
  'native_concept_redeclaration',
  'unresolved_concept',
  'unresolved_pipe_dependency',
  'unknown_validation_error',
  'unknown_model',
  'unresolved_package_dependency',
  'unexported_pipe_dependency',
  'template_private_name',
  'input_presence_vacuous',
  'hint_unknown_key',
  'hint_unknown_intent',
  'hint_inapplicable_intent',
  'unknown_concept',
  'extra_forbidden',
  'missing',
  'invalid_type',
  'enum',
  'value_error',
  'invalid_domain_code',
  'reserved_domain',
  'invalid_concept_code_syntax',
  'invalid_input_name',
  'refines_and_structure',
  'duplicate_code',
  'invalid_concept_field',
  'invalid_template',
  'invalid_pipe_field',
  'invalid_reference',
  'binding_step_invalid',
  'binding_path_unresolved',
  'multiplicity_out_of_range',
  'concept_structure_too_large',
] as const;

/** One `error_type` of the language core. */
export type ValidationErrorType = (typeof VALIDATION_ERROR_TYPES)[number];
