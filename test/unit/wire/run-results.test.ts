/**
 * The results body of a completed run (shared/wire/run-results.ts, docs/api.md#run-results): the artifacts a record
 * lacks are null with their error member saying why; a selection leaves the others out, `pipe_output` and `usage` too.
 */
import { expect } from 'chai';
import { type RunResult, runResultsBody } from '../../../shared/wire/index.js';

const USAGE = {
  total: { calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: null, unpriced_calls: 0 },
  by_model: {},
  by_pipe: {},
};

/** A completed run whose main output is the list `summary`, recorded without a graph. */
const RESULT: RunResult = {
  pipeline_run_id: 'run-1',
  state: 'COMPLETED',
  pipeline_state: 'COMPLETED',
  created_at: '2026-11-30T10:00:00.000Z',
  finished_at: '2026-11-30T10:00:01.000Z',
  main_stuff_name: 'summary',
  pipe_output: {
    working_memory: {
      root: {
        summary: {
          stuff_code: 's1',
          stuff_name: 'summary',
          concept: {
            code: 'Text',
            domain_code: 'native',
            description: 'A text',
            structure_class_name: 'TextContent',
            refines: null,
          },
          content: { items: [{ text: 'a' }, { text: 'b' }] },
        },
      },
      aliases: { main_stuff: 'summary' },
    },
    pipeline_run_id: 'run-1',
    graph_spec: null,
    tokens_usages: [],
  },
  tokens_usages_backends: [],
  usage: USAGE,
  pipe_structures: {},
};

describe('runResultsBody (shared/wire/run-results.ts)', () => {
  it('should answer null I/O artifacts and graph with why, for a record kept without them', () => {
    expect(runResultsBody(RESULT, undefined)).to.deep.equal({
      pipeline_run_id: 'run-1',
      main_stuff: { items: [{ text: 'a' }, { text: 'b' }] },
      working_memory: RESULT.pipe_output.working_memory,
      graph_spec: null,
      graph_assembly_error: 'The run recorded no execution graph.',
      pipe_io_contracts: null,
      input_form: null,
      output_form: null,
      pipe_io_artifacts_error: 'The I/O artifacts were not recorded for this run.',
      tokens_usages: [],
      usage_assembly_error: null,
      pipe_output: RESULT.pipe_output,
      usage: USAGE,
    });
  });

  it('should carry only the selected artifacts and their error members', () => {
    const io = { pipe_io_contracts: {}, input_form: {}, output_form: {}, pipe_io_artifacts_error: null };
    expect(runResultsBody(RESULT, io, new Set(['input_form', 'tokens_usages'] as const))).to.deep.equal({
      pipeline_run_id: 'run-1',
      input_form: {},
      pipe_io_artifacts_error: null,
      tokens_usages: [],
      usage_assembly_error: null,
    });
    expect(runResultsBody(RESULT, io, new Set(['main_stuff'] as const))).to.deep.equal({
      pipeline_run_id: 'run-1',
      main_stuff: { items: [{ text: 'a' }, { text: 'b' }] },
    });
  });
});
