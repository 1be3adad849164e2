/**
 * The operations table of the diagnostics thread (`diagnostics-thread.ts`, `DiagnosticsPool.run`): what the event
 * loop may ask a thread for.
 */
import { type BodyKind, decodeJsonBody, type RawJsonBody } from '../body/decode-json.js';
import type { JsonLimits } from '../body/json-scan.js';
import { answerDiagnostic } from '../requests/diagnostic-requests.js';
import { methodVerdictOperation } from './method-verdict.js';
import { checkRunOperation, loadRunOperation } from './run-check.js';
import { warmOperation } from './text-operations.js';

/** Input of the `decodeJson` operation: a large run-route body (`body/json-body.ts`). */
export interface DecodeJsonInput {
  body: RawJsonBody;
  /** `MAX_JSON_DEPTH` and `MAX_JSON_VALUES`. */
  limits: JsonLimits;
  kind: BodyKind;
}

/** The operations by name. */
export const THREAD_OPERATIONS = {
  /** A diagnostic route's request, answered whole (`requests/diagnostic-requests.ts`). */
  request: answerDiagnostic,
  /** A large JSON body decoded off the event loop. */
  decodeJson: (input: DecodeJsonInput): unknown => decodeJsonBody(input.body, input.limits, input.kind),
  /** The static verdict of a run's bundles. */
  checkRun: checkRunOperation,
  /** The static verdict of a run's bundles, answering the checked bundles. */
  loadRun: loadRunOperation,
  /** The `POST /v1/validate` verdict on a stored method's draft (the methods catalog). */
  methodVerdict: methodVerdictOperation,
  /** The formatter loaded ahead of the first request. */
  warm: warmOperation,
} as const;

/** The name of a thread operation. */
export type ThreadOperation = keyof typeof THREAD_OPERATIONS;
