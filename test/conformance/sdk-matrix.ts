/**
 * The SDK method matrix as data (`test/fixtures/conformance/sdk-matrix.json`, rendered in docs/conformance.md): for
 * each case of `sdk-cases.ts` and each orchestration mode, whether it passes, is expected to be unsupported (with the
 * reason), or is pending work of another item of issue 14; and for those that do not pass, exactly how they fail
 * today, so the suite stays green and fails the day they change.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Outcome } from './sdk-cases.js';

const failureSchema = z.union([
  z
    .object({
      rejects: z
        .object({ name: z.string(), status: z.number().int().optional(), errorType: z.string().optional() })
        .strict(),
    })
    .strict(),
  z.object({ resolves: z.literal(true) }).strict(),
  z.object({ exits: z.number().int(), prints: z.string().min(1), requests: z.number().int().optional() }).strict(),
]);

/** How a call that does not pass fails today. */
export type ExpectedFailure = z.infer<typeof failureSchema>;

const cellSchema = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('pass') }).strict(),
  z.object({ outcome: z.literal('unsupported'), reason: z.string(), fails: failureSchema }).strict(),
  z
    .object({ outcome: z.literal('pending'), work: z.string().min(1), reason: z.string(), fails: failureSchema })
    .strict(),
]);

/** One cell of the matrix: a case in one mode. */
export type MatrixCell = z.infer<typeof cellSchema>;

const matrixSchema = z
  .object({
    sdk: z.string(),
    privateMethods: z.object({ source: z.string(), names: z.array(z.string()) }).strict(),
    reasons: z.record(z.string(), z.string().min(1)),
    cases: z.array(
      z
        .object({
          id: z.string().regex(/^[a-z0-9-]+$/),
          /** The SDK method, or `mthds <command>`. */
          surface: z.string(),
          /** The call, as the doc shows it. */
          call: z.string(),
          direct: cellSchema,
          queue: cellSchema,
        })
        .strict(),
    ),
  })
  .strict()
  .superRefine((matrix, context) => {
    for (const entry of matrix.cases) {
      for (const cell of [entry.direct, entry.queue]) {
        if (cell.outcome !== 'pass' && !(cell.reason in matrix.reasons))
          context.addIssue({ code: 'custom', message: `${entry.id}: no reason '${cell.reason}' in reasons` });
      }
    }
  });

/** The whole matrix. */
export type SdkMatrix = z.infer<typeof matrixSchema>;

/**
 * Read the matrix.
 * @throws ZodError when the file does not have the shape above, or a cell names an unknown reason
 */
export function sdkMatrix(): SdkMatrix {
  const file = new URL('../fixtures/conformance/sdk-matrix.json', import.meta.url);
  return matrixSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/**
 * Whether an outcome is the recorded failure.
 * @param outcome - how a case ended
 * @param failure - how the matrix says it fails
 */
export function failsAsRecorded(outcome: Outcome, failure: ExpectedFailure): boolean {
  if ('resolves' in failure) return outcome.kind === 'resolved';
  if ('rejects' in failure) {
    if (outcome.kind !== 'rejected') return false;
    const { name, status, errorType } = failure.rejects;
    return (
      outcome.error.name === name &&
      (status === undefined || outcome.error.status === status) &&
      (errorType === undefined || outcome.error.errorType === errorType)
    );
  }
  return (
    outcome.kind === 'exited' &&
    outcome.run.code === failure.exits &&
    (outcome.run.stdout + outcome.run.stderr).includes(failure.prints) &&
    (failure.requests === undefined || outcome.requests.length === failure.requests)
  );
}
