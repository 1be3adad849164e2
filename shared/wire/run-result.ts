/**
 * The run result of `POST /v1/execute` (spec §2.4; docs/api.md#post-v1execute): state, timestamps, the final working
 * memory, its token usage and the pipe structures of the library.
 *
 * `pipe_output` follows the reference's closed `PipeOutputWire` and `TokensUsageRecord` exactly; the backend that
 * served each inference call, which those schemas have no member for, rides the run result's top level (open in the
 * reference's `PipelexApiExecuteResponse`) as `tokens_usages_backends`, and so does the run's usage and cost report
 * (`usage`, docs/run-events.md#usage-and-cost).
 */
import type { MethodProvenance } from '../methods/index.js';
import type { Library, Multiplicity } from '../mthds/index.js';
import type { RunGraph } from '../runtime/graph-recorder.js';
import type { RunOutcome } from '../runtime/run-pipeline.js';
import { type AbsenceRecord, absenceRecord } from './absence-record.js';
import type { GraphSpec } from './graph-shapes.js';
import { graphSpec } from './graph-spec.js';
import { type RunUsageReport, runUsageReport, type TokensUsageWire, tokensUsageRecord } from './usage.js';
import { type WorkingMemoryWire, workingMemoryToWire } from './working-memory.js';

/**
 * Run states (spec §3), and `TIMED_OUT`: a run stopped at its deadline (`timeout_seconds`, docs/cancellation.md), a
 * state of the hosted API's runs.
 */
export type RunState = 'STARTED' | 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TIMED_OUT' | 'ERROR';

/** One declared input or output in `pipe_structures`. */
export interface IOStructure {
  concept_code: string;
  multiplicity: Multiplicity;
}

/** `pipe_structures` entry (spec §2.4). */
export interface PipeStructure {
  inputs: Record<string, IOStructure>;
  output: IOStructure;
}

/** The 200 body of a finished run. `state` and `pipeline_state` carry the same value (spec §2.4 and the reference). */
export interface RunResult {
  pipeline_run_id: string;
  state: RunState;
  pipeline_state: RunState;
  created_at: string;
  finished_at: string | null;
  main_stuff_name: string | null;
  pipe_output: {
    working_memory: WorkingMemoryWire;
    pipeline_run_id: string;
    /** The run's live graph (the reference's `PipeOutputWire.graph_spec`; docs/graph-spec.md). */
    graph_spec: GraphSpec | null;
    tokens_usages: TokensUsageWire[];
  };
  /** The backend that served each inference call (`mock`, `openai`, …), in the order of `pipe_output.tokens_usages`. */
  tokens_usages_backends: (string | null)[];
  /** The run's usage and cost: totals, by model and by pipe (docs/run-events.md#usage-and-cost). */
  usage: RunUsageReport;
  pipe_structures: Record<string, PipeStructure>;
  /** Present only on `method_ref` runs: where the method came from (spec §2.2; docs/api.md#post-v1execute). */
  method_provenance?: MethodProvenance;
  /**
   * Present only when the main output resolved absent, a successful run
   * (docs/language.md#optionality-presence-markers-and-absences): `true`, with the
   * absence in {@link absence} (also in `pipe_output.working_memory.absences` under `main_stuff_name`).
   */
  absent?: true;
  /** The absence the main output resolved to, with its provenance; present with {@link absent}. */
  absence?: AbsenceRecord;
}

/**
 * A run result with the provenance of its fetched method, when there is one.
 * @param result - the finished run
 * @param provenance - the fetch's provenance, or null/undefined for an inline run (then the result is unchanged)
 */
export function withProvenance(result: RunResult, provenance: MethodProvenance | null | undefined): RunResult {
  return provenance ? { ...result, method_provenance: provenance } : result;
}

/**
 * The declared signature of every pipe of a library, keyed by pipe code.
 * @param library - a loaded library
 */
export function pipeStructures(library: Library): Record<string, PipeStructure> {
  const structures: Record<string, PipeStructure> = {};
  for (const pipe of library.pipes.values()) {
    structures[pipe.code] = {
      inputs: Object.fromEntries(
        pipe.inputs.map((input) => [input.name, { concept_code: input.conceptRef, multiplicity: input.multiplicity }]),
      ),
      output: { concept_code: pipe.output.conceptRef, multiplicity: pipe.output.multiplicity },
    };
  }
  return structures;
}

/**
 * Build the wire result of a completed run.
 * @param outcome - the finished run
 * @param library - its library
 * @param graph - its recorded execution graph, when recorded
 */
export function completedRunResult(outcome: RunOutcome, library: Library, graph: RunGraph | null): RunResult {
  const absence = outcome.memory.mainAbsence();
  const result: RunResult = {
    pipeline_run_id: outcome.pipelineRunId,
    state: 'COMPLETED',
    pipeline_state: 'COMPLETED',
    created_at: new Date(outcome.createdAt).toISOString(),
    finished_at: new Date(outcome.finishedAt).toISOString(),
    main_stuff_name: absence?.variableName ?? outcome.memory.mainStuffName(),
    pipe_output: {
      working_memory: workingMemoryToWire(outcome.memory),
      pipeline_run_id: outcome.pipelineRunId,
      graph_spec: graph && graphSpec(graph, library),
      tokens_usages: outcome.inferenceCalls.map((call) => {
        const { backend: _served, ...record } = tokensUsageRecord(call);
        return record;
      }),
    },
    tokens_usages_backends: outcome.inferenceCalls.map((call) => call.backend),
    usage: runUsageReport(outcome.usage),
    pipe_structures: pipeStructures(library),
  };
  return absence ? { ...result, absent: true, absence: absenceRecord(absence) } : result;
}
