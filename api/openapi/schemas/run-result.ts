/**
 * Bodies of the run routes (`POST /v1/execute`, `POST /v1/start`, `GET /v1/runs/{run_id}/status`, `/results`, `/usage`)
 * as
 * the OpenAPI document describes them (spec §2.4, §3; docs/api.md#result; docs/api.md#run-lifecycle). Names and members
 * follow
 * the reference OpenAPI (`PipelexApiExecuteResponse`, `PipelexRunResultStart`, `PipeOutputWire`, `WorkingMemory`,
 * `Stuff`, `Concept`, `TokensUsageRecord`); the lifecycle bodies (`RunRead`, `RunResults`) follow
 * docs/api.md#run-lifecycle.
 */
import { z } from 'zod';
import { VALIDATION_ERROR_ITEM } from './problem-document.js';
import { PIPE_IO_CONTRACT } from './reports.js';

const RUN_STATE = z
  .enum(['STARTED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT', 'ERROR'])
  .meta({ id: 'RunState', description: 'A run state (spec §3; `TIMED_OUT`: docs/cancellation.md).' });

const CONCEPT = z
  .object({
    code: z.string(),
    domain_code: z.string(),
    description: z.string(),
    structure_class_name: z.string(),
    refines: z.string().nullable(),
  })
  .meta({ id: 'Concept', description: 'The concept of a stuff.' });

const STUFF = z
  .object({
    stuff_code: z.string(),
    stuff_name: z.string().nullable(),
    concept: CONCEPT,
    content: z.unknown().meta({ description: "The content, per its concept's structure; a list is `{items: […]}`." }),
  })
  .meta({ id: 'Stuff', description: 'One value of the working memory.' });

const ABSENCE_RECORD = z
  .object({
    variable_name: z.string(),
    kind: z.enum(['declared_absent', 'skipped', 'not_provided']),
    reason: z.string(),
    producing_pipe: z.string().nullable(),
    upstream: z
      .looseObject({})
      .nullable()
      .meta({ description: 'The absence this one chains to (an AbsenceRecord), or null.' }),
  })
  .meta({
    id: 'AbsenceRecord',
    description:
      'A named slot that holds no value, with provenance (docs/language.md#optionality-presence-markers-and-absences).',
  });

const WORKING_MEMORY = z
  .object({
    root: z.record(z.string(), STUFF).meta({ description: 'Every stuff, by name.' }),
    aliases: z.record(z.string(), z.string()).meta({ description: 'Alias → stuff name (`main_stuff` among them).' }),
    absences: z
      .record(z.string(), ABSENCE_RECORD)
      .optional()
      .meta({ description: 'The names resolved to no value, by name; present only when there is one.' }),
  })
  .meta({ id: 'WorkingMemory', description: 'The working memory of a run.' });

const TOKENS_USAGE_RECORD = z
  .looseObject({
    model_type: z.string(),
    inference_model_name: z.string(),
    inference_model_id: z.string(),
    pipe_code: z.string().nullable(),
    job_category: z.string().nullable(),
    unit_job_id: z.string().nullable(),
    nb_tokens_by_category: z.record(z.string(), z.number().int()),
    cost: z.number().nullable().meta({ description: 'Null until model rates are configured.' }),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
  })
  .meta({ id: 'TokensUsageRecord', description: 'One inference call of a run.' });

const PIPE_OUTPUT = z
  .object({
    working_memory: WORKING_MEMORY,
    pipeline_run_id: z.string(),
    graph_spec: z
      .looseObject({})
      .nullable()
      .meta({ description: 'The live graph of the run (the reference GraphSpec; docs/graph-spec.md).' }),
    tokens_usages: z.array(TOKENS_USAGE_RECORD),
  })
  .meta({ id: 'PipeOutputWire', description: 'The output of a run.' });

const IO_STRUCTURE = z.object({
  concept_code: z.string(),
  multiplicity: z
    .union([z.enum(['single', 'variable']), z.number().int()])
    .meta({ description: '`single`, `variable` (a list) or N (a list of exactly N items).' }),
});

const METHOD_PROVENANCE = z
  .looseObject({
    address: z.string(),
    tag: z.string().nullable(),
    commit_sha: z.string(),
    package_name: z.string().nullable(),
    package_version: z.string().nullable(),
  })
  .meta({ id: 'MethodProvenance', description: 'Where a `method_ref` method came from (docs/methods.md).' });

export const USAGE_FIGURES = z
  .object({
    calls: z.number().int().meta({ description: 'Inference calls made.' }),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    cost_usd: z.number().nullable().meta({
      description:
        'USD spent by the priced calls; null when there were calls and none was priced. With `unpriced_calls` > 0 the true cost is unknown.',
    }),
    unpriced_calls: z.number().int().meta({ description: 'Calls whose model has no price: their cost is unknown.' }),
  })
  .meta({ id: 'UsageFigures', description: 'Usage and cost of a group of inference calls.' });

/** A run's usage and cost report (docs/run-events.md#usage-and-cost). */
const RUN_USAGE_REPORT = z
  .object({
    total: USAGE_FIGURES,
    by_model: z.record(z.string(), USAGE_FIGURES).meta({ description: 'By model handle.' }),
    by_pipe: z.record(z.string(), USAGE_FIGURES).meta({ description: 'By the pipe that made the calls.' }),
  })
  .meta({ id: 'RunUsageReport', description: 'What a run used and cost (docs/run-events.md#usage-and-cost).' });

/** The 200 body of `POST /v1/execute`: a finished run. */
export const RUN_RESULT = z
  .looseObject({
    pipeline_run_id: z.string(),
    state: RUN_STATE,
    pipeline_state: RUN_STATE.meta({ description: 'Same value as `state` (the spec’s name for it).' }),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    main_stuff_name: z.string().nullable().meta({ description: 'Name of the final output in the working memory.' }),
    pipe_output: PIPE_OUTPUT,
    pipe_structures: z
      .record(z.string(), z.object({ inputs: z.record(z.string(), IO_STRUCTURE), output: IO_STRUCTURE }))
      .meta({ description: 'The declared inputs and output of every pipe of the library.' }),
    method_provenance: METHOD_PROVENANCE.optional(),
    absent: z
      .literal(true)
      .optional()
      .meta({ description: 'Only when the main output resolved absent (a completed run).' }),
    absence: ABSENCE_RECORD.optional().meta({ description: 'The absent main output, with `absent`.' }),
    usage: RUN_USAGE_REPORT,
  })
  .meta({ id: 'PipelexApiExecuteResponse', description: 'A finished run (spec §2.4; docs/api.md#result).' });

/** The 202 body of `POST /v1/start`: the run is enqueued. */
export const RUN_START = z
  .looseObject({
    pipeline_run_id: z.string(),
    created_at: z.string(),
    state: z.literal('STARTED'),
    pipeline_state: z.literal('STARTED'),
    finished_at: z.null(),
    workflow_id: z.string().nullable(),
    main_stuff_name: z.null(),
    pipe_output: z.null(),
    pipe_structures: z.null(),
    method_provenance: METHOD_PROVENANCE.nullable(),
    method_version: z
      .union([z.number().int(), z.literal('draft')])
      .optional()
      .meta({
        description:
          'A run of a stored method named by `method_id` alone: the version that runs, or `draft` (docs/methods.md#method_id).',
      }),
  })
  .meta({ id: 'PipelexRunResultStart', description: 'The acknowledgement of a started run (spec §2.4).' });

/** The 202 body of `POST /v1/runs/{runId}/retry`: the new run is enqueued. */
export const RUN_RETRY = RUN_START.extend({
  retry_of: z.string().meta({ description: 'The `pipeline_run_id` of the run retried.' }),
}).meta({
  id: 'RunRetryStart',
  description: 'The acknowledgement of a retry: a new run, started as `/v1/start` starts one (docs/checkpoints.md).',
});

/** The run's trace id, present when tracing was on as the run was accepted. */
const TRACE_ID = z
  .string()
  .regex(/^[0-9a-f]{32}$/)
  .meta({ description: 'The id of the run’s OpenTelemetry trace, when tracing is on (docs/tracing.md).' });

const RUN_STATUS = z.enum(['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

export const ERROR_REPORT = z
  .looseObject({
    error_type: z.string(),
    message: z.string(),
    title: z.string(),
    type_uri: z.string(),
    error_domain: z.string().optional(),
    retryable: z.boolean().optional(),
    pipe_code: z.string().nullable().optional(),
    error_category: z.string().optional(),
    validation_errors: z.array(VALIDATION_ERROR_ITEM).optional(),
  })
  .meta({ id: 'ErrorReport', description: 'Why a run failed (docs/run-failures.md).' });

/** `GET /v1/runs/{run_id}/status` (docs/api.md#run-lifecycle). */
export const RUN_READ = z
  .looseObject({
    pipeline_run_id: z.string(),
    pipe_code: z.string().nullable(),
    status: RUN_STATUS,
    state: RUN_STATE,
    workflow_id: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    degraded: z.boolean(),
    progress: z
      .object({
        current_pipe: z.string().nullable().meta({ description: 'The pipe running now; null once the run ended.' }),
        finished_pipes: z.number().int().meta({ description: 'Pipes finished so far, nested pipes included.' }),
      })
      .meta({ description: 'How far the run got (docs/run-events.md).' }),
    error: ERROR_REPORT.optional().meta({
      description:
        'The error report of a failed run, with `retryable` and the failing `pipe_code`; of a stopped run, its stop’s (`RunCancelledError`, `RunTimedOutError`).',
    }),
    usage: RUN_USAGE_REPORT.nullable().meta({
      description: 'The run’s usage and cost so far (final once it ended); null before any of its pipes ended.',
    }),
    trace_id: TRACE_ID.optional(),
  })
  .meta({ id: 'RunRead', description: 'Where a run stands.' });

const OPEN_OBJECT = z.looseObject({});

/** Why an artifact is null: null when it was built. */
const ARTIFACT_ERROR = z.string().nullable();

/**
 * `GET /v1/runs/{run_id}/results` of a completed run (docs/api.md#run-results). Each artifact is present unless
 * `?artifacts=` left it out; `pipe_output` and `usage` only in a read without `?artifacts=`.
 */
export const RUN_RESULTS = z
  .looseObject({
    pipeline_run_id: z.string(),
    main_stuff: z.unknown().optional().meta({
      description:
        'Content of the main output, never null: its concept’s fields, `{items: […]}` for a list, `{absent: true, absence}` for an output resolved absent.',
    }),
    working_memory: WORKING_MEMORY.nullable().optional(),
    graph_spec: OPEN_OBJECT.nullable()
      .optional()
      .meta({ description: 'The live graph of the run, as in `pipe_output.graph_spec` (docs/graph-spec.md).' }),
    graph_assembly_error: ARTIFACT_ERROR.optional().meta({ description: 'With `graph_spec`: why it is null.' }),
    pipe_io_contracts: z
      .record(z.string(), PIPE_IO_CONTRACT)
      .nullable()
      .optional()
      .meta({ description: 'The contract of every pipe of the run’s library, as `/v1/validate` gives them.' }),
    input_form: z
      .record(z.string(), OPEN_OBJECT)
      .nullable()
      .optional()
      .meta({ description: 'The input form of every pipe, as `/v1/validate`’s `input_form` view (docs/forms.md).' }),
    output_form: z
      .record(z.string(), OPEN_OBJECT)
      .nullable()
      .optional()
      .meta({ description: 'The output form of every pipe, as `/v1/validate`’s `output_form` view (docs/forms.md).' }),
    pipe_io_artifacts_error: ARTIFACT_ERROR.optional().meta({
      description: 'With any of the three I/O artifacts: why they are null.',
    }),
    tokens_usages: z
      .array(TOKENS_USAGE_RECORD)
      .nullable()
      .optional()
      .meta({ description: 'The run’s usage records, as `pipe_output.tokens_usages`.' }),
    usage_assembly_error: ARTIFACT_ERROR.optional().meta({ description: 'With `tokens_usages`: always null here.' }),
    pipe_output: PIPE_OUTPUT.optional().meta({ description: 'The whole output; only without `?artifacts=`.' }),
    usage: RUN_USAGE_REPORT.optional().meta({ description: 'Usage and cost; only without `?artifacts=`.' }),
    trace_id: TRACE_ID.optional(),
  })
  .meta({ id: 'RunResults', description: 'The result of a completed run.' });

/** `GET /v1/runs/{run_id}/usage`: a run's usage and cost (docs/api.md#run-lifecycle). */
export const RUN_USAGE = z
  .object({
    pipeline_run_id: z.string(),
    status: RUN_STATUS,
    usage: RUN_USAGE_REPORT.nullable().meta({
      description: 'So far while the run goes on, final once it ended; null before any of its pipes ended.',
    }),
  })
  .meta({ id: 'RunUsage', description: 'What a run used and cost so far.' });

/** `GET /v1/runs/{run_id}/results` of a run not finished yet. */
export const RUN_PENDING = z
  .looseObject({ pipeline_run_id: z.string(), status: z.enum(['PENDING', 'RUNNING']) })
  .meta({ id: 'RunPending', description: 'The run has not finished: ask again after `Retry-After` seconds.' });
