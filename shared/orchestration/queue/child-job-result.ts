/**
 * What a child job returns (docs/fan-out.md): the child's outcome or its failure, with its usage, pipe reports and
 * graph, kept as plain JSON in the wire's shapes so that a run retaken across an upgrade still reads its children's
 * results; checked against {@link CHILD_RESULT} when the parent reads it.
 */
import { z } from 'zod';
import type { ErrorReport } from '../../errors/index.js';
import type { FanOutOutcome, FanOutReport, PipeProgress } from '../../runtime/index.js';
import {
  type AbsenceRecord,
  absenceOf,
  absenceRecord,
  inferenceCallOf,
  pipeTokenUsageOf,
  type RunUsageReport,
  runUsageReport,
  type TokenCounts,
  type TokensUsageRecord,
  tokenCounts,
  tokensUsageRecord,
  usageSummaryOf,
} from '../../wire/index.js';
import { ABSENCE, STUFF_SNAPSHOT } from './child-job-payload.js';

const USAGE_FIGURES = z.looseObject({
  calls: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost_usd: z.number().nullable(),
  unpriced_calls: z.number(),
});

/** A pipe report as kept: an ended pipe's tokens and the run's usage report in their wire shapes. */
const KEPT_PROGRESS = z.union([
  z.looseObject({ kind: z.literal('started') }),
  z.looseObject({
    kind: z.enum(['finished', 'failed']),
    usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number() }),
    runUsage: z.looseObject({
      total: USAGE_FIGURES,
      by_model: z.record(z.string(), USAGE_FIGURES),
      by_pipe: z.record(z.string(), USAGE_FIGURES),
    }),
  }),
]);

const FAN_OUT_REPORT = z.object({
  usage: z.array(z.looseObject({ nb_tokens_by_category: z.record(z.string(), z.number()) })),
  progress: z.array(KEPT_PROGRESS),
  graph: z.object({
    nodes: z.array(z.looseObject({ id: z.string() })),
    contains: z.array(z.object({ source: z.string(), target: z.string() })),
    finished: z.array(z.string()),
    pipes: z.array(z.looseObject({ ref: z.string() })),
  }),
  pipes: z.number().int().nonnegative(),
});

const FAN_OUT_OUTCOME = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stuff'), name: z.string().nullable(), stuff: STUFF_SNAPSHOT }),
  z.object({ kind: z.literal('absent'), absence: ABSENCE }),
  z.object({ kind: z.literal('none') }),
]);

/**
 * What a child job returns (its BullMQ return value): the child's outcome, or its failure as an error report, with
 * its usage, pipe reports, graph and the number of pipes it started either way. A pipe failure is a result, not a
 * failed job: the parent decides.
 */
const CHILD_RESULT = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), outcome: FAN_OUT_OUTCOME, report: FAN_OUT_REPORT }),
  z.object({
    ok: z.literal(false),
    error: z.looseObject({ error_type: z.string(), message: z.string(), title: z.string(), type_uri: z.string() }),
    report: FAN_OUT_REPORT,
  }),
]);
/** A child job's result, typed with the runtime's shapes (validated by {@link CHILD_RESULT}). */
export type ChildResult =
  | { ok: true; outcome: FanOutOutcome; report: FanOutReport }
  | { ok: false; error: ErrorReport; report: FanOutReport };

/** A pipe report as a child job's return value keeps it: its token counts and usage report in their wire shapes. */
type KeptProgress<P extends PipeProgress = PipeProgress> = P extends { runUsage: unknown }
  ? Omit<P, 'usage' | 'runUsage'> & { usage: TokenCounts; runUsage: RunUsageReport }
  : P;

/** A fan-out report as a child job's return value keeps it: usage records and pipe reports in their wire shapes. */
type KeptReport = Omit<FanOutReport, 'usage' | 'progress'> & { usage: TokensUsageRecord[]; progress: KeptProgress[] };

/** A child's outcome as its job's return value keeps it: an absence as an absence record. */
type KeptOutcome = Exclude<FanOutOutcome, { kind: 'absent' }> | { kind: 'absent'; absence: AbsenceRecord };

/**
 * A child job's return value: its {@link ChildResult} with the usage and an absent outcome in the wire shapes, the
 * JSON child jobs have always returned, so that a run retaken across an upgrade still reads its children's results
 * (docs/fan-out.md).
 */
export type ChildResultValue =
  | { ok: true; outcome: KeptOutcome; report: KeptReport }
  | { ok: false; error: ErrorReport; report: KeptReport };

function keptReport(report: FanOutReport): KeptReport {
  return {
    ...report,
    usage: report.usage.map(tokensUsageRecord),
    progress: report.progress.map(
      (progress): KeptProgress =>
        progress.kind === 'started'
          ? progress
          : { ...progress, usage: tokenCounts(progress.usage), runUsage: runUsageReport(progress.runUsage) },
    ),
  };
}

function reportOf(kept: KeptReport): FanOutReport {
  return {
    ...kept,
    usage: kept.usage.map(inferenceCallOf),
    progress: kept.progress.map(
      (progress): PipeProgress =>
        progress.kind === 'started'
          ? progress
          : { ...progress, usage: pipeTokenUsageOf(progress.usage), runUsage: usageSummaryOf(progress.runUsage) },
    ),
  };
}

/**
 * The return value of a child job.
 * @param result - the child's result
 */
export function childResultValue(result: ChildResult): ChildResultValue {
  if (!result.ok) return { ...result, report: keptReport(result.report) };
  const { outcome } = result;
  return {
    ok: true,
    outcome: outcome.kind === 'absent' ? { kind: 'absent', absence: absenceRecord(outcome.absence) } : outcome,
    report: keptReport(result.report),
  };
}

/**
 * A child job's return value, checked against {@link CHILD_RESULT}.
 * @param value - the job's return value
 * @returns the result, or undefined when the value is not one
 */
export function childResultOf(value: unknown): ChildResult | undefined {
  if (!CHILD_RESULT.safeParse(value).success) return undefined;
  const kept = value as ChildResultValue;
  if (!kept.ok) return { ...kept, report: reportOf(kept.report) };
  const { outcome } = kept;
  return {
    ok: true,
    outcome: outcome.kind === 'absent' ? { kind: 'absent', absence: absenceOf(outcome.absence) } : outcome,
    report: reportOf(kept.report),
  };
}
