/**
 * The 200 body of `GET /v1/runs/{id}/results` (docs/api.md#run-results): a completed run's result as separate
 * artifacts — its main output, working memory, live graph, I/O artifacts and usage records — beside the whole
 * `pipe_output` and the usage report. `?artifacts=` narrows it to the artifacts named.
 */
import type { GraphSpec } from './graph-shapes.js';
import { missingRunIOArtifacts, type RunIOArtifacts } from './run-io-artifacts.js';
import type { RunResult } from './run-result.js';
import type { RunUsageReport, TokensUsageWire } from './usage.js';
import type { WorkingMemoryWire } from './working-memory.js';

/** The artifacts a results read may select, in the order the body carries them. */
export const RUN_RESULT_ARTIFACTS = [
  'main_stuff',
  'working_memory',
  'graph_spec',
  'pipe_io_contracts',
  'input_form',
  'output_form',
  'tokens_usages',
] as const;

/** One artifact name of {@link RUN_RESULT_ARTIFACTS}. */
export type RunResultArtifact = (typeof RUN_RESULT_ARTIFACTS)[number];

/** What `pipe_io_artifacts_error` says of a run whose record kept no I/O artifacts (it finished before they were kept). */
const IO_ARTIFACTS_NOT_RECORDED = 'The I/O artifacts were not recorded for this run.';

/** What `graph_assembly_error` says of a completed run without a graph. */
const GRAPH_NOT_RECORDED = 'The run recorded no execution graph.';

/**
 * The results body. Every member but `pipeline_run_id` is present only when its artifact was selected (all of them
 * without a selection); a selected artifact the run has not got is null, with its `*_error` member saying why.
 */
export interface RunResultsBody {
  pipeline_run_id: string;
  /**
   * The main output's content, never null: an object of its concept's fields, `{items: […]}` for a list; for a main
   * output resolved absent, `{absent: true, absence}` (docs/language.md#optionality-presence-markers-and-absences).
   */
  main_stuff?: unknown;
  working_memory?: WorkingMemoryWire | null;
  graph_spec?: GraphSpec | null;
  /** With `graph_spec`: null when it was built, else why not. */
  graph_assembly_error?: string | null;
  pipe_io_contracts?: RunIOArtifacts['pipe_io_contracts'];
  input_form?: RunIOArtifacts['input_form'];
  output_form?: RunIOArtifacts['output_form'];
  /** With any of the three I/O artifacts: null when they were built, else why not. */
  pipe_io_artifacts_error?: string | null;
  tokens_usages?: TokensUsageWire[] | null;
  /** With `tokens_usages`: null (the records are always assembled). */
  usage_assembly_error?: string | null;
  /** The whole output, as `/v1/execute` answers it; only in a read without a selection. */
  pipe_output?: RunResult['pipe_output'];
  /** The usage and cost report; only in a read without a selection. */
  usage?: RunUsageReport;
}

/**
 * The main output's content: its stuff's `content` as the working memory holds it (a list stays `{items: […]}`), or
 * the absence it resolved to.
 * @param result - a completed run's result
 */
function mainStuffOf(result: RunResult): unknown {
  if (result.absent && result.absence) return { absent: true, absence: result.absence };
  const name = result.main_stuff_name ?? result.pipe_output.working_memory.aliases['main_stuff'];
  return (name && result.pipe_output.working_memory.root[name]?.content) ?? null;
}

/**
 * Build the results body of a completed run.
 * @param result - the run's result
 * @param io - the I/O artifacts kept with its record; undefined for a run kept without them
 * @param selected - the artifacts asked for (`?artifacts=`); undefined for all of them, with `pipe_output` and `usage`
 */
export function runResultsBody(
  result: RunResult,
  io: RunIOArtifacts | undefined,
  selected?: ReadonlySet<RunResultArtifact>,
): RunResultsBody {
  const wants = (artifact: RunResultArtifact) => selected === undefined || selected.has(artifact);
  const ioArtifacts = io ?? missingRunIOArtifacts(IO_ARTIFACTS_NOT_RECORDED);
  const graph = result.pipe_output.graph_spec;
  const body: RunResultsBody = { pipeline_run_id: result.pipeline_run_id };
  if (wants('main_stuff')) body.main_stuff = mainStuffOf(result);
  if (wants('working_memory')) body.working_memory = result.pipe_output.working_memory;
  if (wants('graph_spec')) {
    body.graph_spec = graph;
    body.graph_assembly_error = graph === null ? GRAPH_NOT_RECORDED : null;
  }
  if (wants('pipe_io_contracts')) body.pipe_io_contracts = ioArtifacts.pipe_io_contracts;
  if (wants('input_form')) body.input_form = ioArtifacts.input_form;
  if (wants('output_form')) body.output_form = ioArtifacts.output_form;
  if (wants('pipe_io_contracts') || wants('input_form') || wants('output_form'))
    body.pipe_io_artifacts_error = ioArtifacts.pipe_io_artifacts_error;
  if (wants('tokens_usages')) {
    body.tokens_usages = result.pipe_output.tokens_usages;
    body.usage_assembly_error = null;
  }
  if (selected === undefined) {
    body.pipe_output = result.pipe_output;
    body.usage = result.usage;
  }
  return body;
}
