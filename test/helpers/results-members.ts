/**
 * The members of a completed run's results body, in the order the service answers them (docs/api.md#run-results):
 * what the suites pin, written out here once.
 */
export const RESULTS_MEMBERS: readonly string[] = [
  'pipeline_run_id',
  'main_stuff',
  'working_memory',
  'graph_spec',
  'graph_assembly_error',
  'pipe_io_contracts',
  'input_form',
  'output_form',
  'pipe_io_artifacts_error',
  'tokens_usages',
  'usage_assembly_error',
  'pipe_output',
  'usage',
];
