/**
 * Durable tool calls (docs/mcp.md#durable-calls): a call that runs a method starts its run as `POST /v1/start` does
 * (with a `direct` deployment, in this process beyond the answer), follows the run's events — each one a progress
 * notification when the client gave a `progressToken` — and answers its structured result when the run ends within
 * `MCP_CALL_WAIT_SECONDS`; past that it answers the run's id, and the run goes on, readable with the run tools and
 * resources.
 *
 * A call of a client that sends an `Mcp-Session-Id` (the endpoint gives one at `initialize`) has an idempotency key and
 * a run id derived from its session and JSON-RPC id: a retry of the call gets the same run, and the call's
 * `notifications/cancelled` — which may reach another API replica than the call — stops that run.
 */
import { createHash } from 'node:crypto';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, RequestId, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { LoggedRunEvent, RunRecord } from '../../shared/orchestration/index.js';
import { runResultsBody } from '../../shared/wire/index.js';
import { startRunFor } from '../routes/run.js';
import { disclosedRunError, runEnded, runStatus } from '../routes/runs.js';
import { readOwnedOrKeptRun } from '../run-ownership.js';
import { withFetchableUrls } from '../storage-urls.js';
import type { McpCaller, McpServices } from './mcp-services.js';

/** What a tool handler is given by the SDK besides the request. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The idempotency scope's route of the endpoint's calls (apart from the HTTP routes' keys). */
const CALL_ROUTE = 'MCP tools/call';

function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/**
 * The run id of a call, derived from its owner, session and JSON-RPC id: the same for a retry of the call and for its
 * cancellation, wherever they arrive.
 * @param owner - the caller's own id
 * @param session - the client's `Mcp-Session-Id`
 * @param requestId - the call's JSON-RPC id
 */
function callRunId(owner: string, session: string, requestId: RequestId): string {
  return `mcp-${digest([owner, session, JSON.stringify(requestId)]).slice(0, 40)}`;
}

/** The structured answer of a call that ran a method: its run, how it stands, and its output once completed. */
interface CallOutcome {
  [member: string]: unknown;
  pipeline_run_id: string;
  status: string;
  output?: unknown;
  error?: unknown;
}

function textOf(outcome: CallOutcome): string {
  return JSON.stringify(outcome);
}

/**
 * Start a run for a call, wait for it within the bound, and answer.
 * @param services - the endpoint's services
 * @param caller - the caller and its session
 * @param request - a run request (`RUN_REQUEST`'s shape: the method, or an inline bundle, and the inputs)
 * @param extra - the SDK's handler context: the call's id, its `progressToken`, its abort signal, its notifications
 * @returns the call's result: `status` COMPLETED with `output`, an error result for a run that failed or stopped, or
 *   the run's id with status PENDING or RUNNING when it outlasted the wait
 * @throws the problems of `POST /v1/start` (the caller's tool result says them)
 */
export async function callRun(
  services: McpServices,
  caller: McpCaller,
  request: Record<string, unknown>,
  extra: ToolExtra,
): Promise<CallToolResult> {
  const owner = caller.identity.userId;
  const session = caller.session;
  const keyed =
    session === undefined
      ? { route: CALL_ROUTE, key: undefined, body: request }
      : {
          route: CALL_ROUTE,
          key: `mcp-${digest([session, JSON.stringify(extra.requestId)])}`,
          body: request,
        };
  const runRequest =
    session === undefined ? request : { ...request, pipeline_run_id: callRunId(owner, session, extra.requestId) };
  const started = await startRunFor(
    { identity: caller.identity, requestId: caller.requestId },
    services.runs,
    runRequest,
    keyed,
    { status: 202, shape: (body) => body },
    'launch',
  );
  const runId = (started.answer.body as { pipeline_run_id: string }).pipeline_run_id;
  const progress = progressReporter(extra, runId);
  await progress.started();
  const record = await waitForEnd(services, caller, runId, extra, progress.event, started.running);
  return answerOf(services, caller, record);
}

/** Sends a call's progress notifications, when the client asked for them. */
function progressReporter(extra: ToolExtra, runId: string) {
  const token = extra._meta?.progressToken;
  let count = 0;
  const send = async (message: string) => {
    if (token === undefined) return;
    await extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: count, message },
      })
      .catch(() => undefined);
    count += 1;
  };
  return {
    started: () => send(`run ${runId} started`),
    event: (logged: LoggedRunEvent) => {
      const event = logged.event;
      const pipe = 'pipe_code' in event && typeof event.pipe_code === 'string' ? ` ${event.pipe_code}` : '';
      return send(`${event.type}${pipe}`);
    },
  };
}

/**
 * Wait for a run within the bound, when a wait slot is free, then read its record.
 * @returns the run's record as it stands then
 */
async function waitForEnd(
  services: McpServices,
  caller: McpCaller,
  runId: string,
  extra: ToolExtra,
  onEvent: (logged: LoggedRunEvent) => Promise<void>,
  running: Promise<unknown> | undefined,
): Promise<RunRecord> {
  const read = () => readOwnedOrKeptRun(services.store, services.objects, runId, caller.identity, undefined);
  if (!services.waits.take()) return read();
  try {
    await follow(services, runId, extra, onEvent, running);
  } finally {
    services.waits.release();
  }
  return read();
}

/** Follow a run's events until the run ends, the wait's bound passes, the client goes away or `running` settles. */
async function follow(
  services: McpServices,
  runId: string,
  extra: ToolExtra,
  onEvent: (logged: LoggedRunEvent) => Promise<void>,
  running: Promise<unknown> | undefined,
): Promise<void> {
  const stop = new AbortController();
  const bound = setTimeout(() => stop.abort(), services.callWaitMs);
  const leave = () => stop.abort();
  extra.signal.addEventListener('abort', leave, { once: true });
  // a run in this process that settles ends the wait even when its events were not logged
  running?.then(leave, leave);
  try {
    for await (const logged of services.events.follow(runId, { after: null, wait: true, signal: stop.signal })) {
      await onEvent(logged);
      if (logged.event.type === 'run:finished') break;
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    clearTimeout(bound);
    extra.signal.removeEventListener('abort', leave);
  }
}

/**
 * The tool result of a run as it stands.
 * @param services - the endpoint's services
 * @param caller - the caller (the links of stored files it may read)
 * @param record - the run's record
 */
export async function answerOf(services: McpServices, caller: McpCaller, record: RunRecord): Promise<CallToolResult> {
  const status = runStatus(record);
  const pipelineRunId = record.pipeline_run_id;
  if (!runEnded(record)) {
    const outcome: CallOutcome = { pipeline_run_id: pipelineRunId, status };
    return {
      content: [
        {
          type: 'text',
          text: `Run ${pipelineRunId} is ${status}: read it later with mthds_run_status and mthds_run_results, or the resource mthds://runs/${pipelineRunId}/results.`,
        },
      ],
      structuredContent: outcome,
    };
  }
  if (status === 'COMPLETED' && record.result) {
    const body = runResultsBody(record.result, record.io_artifacts, new Set(['main_stuff']));
    const linked = await withFetchableUrls(body, caller.identity, { links: services.links, req: caller.req });
    const outcome: CallOutcome = { pipeline_run_id: pipelineRunId, status, output: linked.main_stuff };
    return { content: [{ type: 'text', text: textOf(outcome) }], structuredContent: outcome };
  }
  const error = disclosedRunError(record, services.disclosure);
  const outcome: CallOutcome = { pipeline_run_id: pipelineRunId, status, ...(error ? { error } : {}) };
  return {
    isError: true,
    content: [{ type: 'text', text: `Run ${pipelineRunId} ended ${status}${error ? `: ${error.message}` : ''}` }],
    structuredContent: outcome,
  };
}

/**
 * Stop the run of a call the client cancelled (`notifications/cancelled`), wherever the call waits.
 * @param services - the endpoint's services
 * @param caller - the caller and its session (a call without a session has no run id to find)
 * @param requestId - the cancelled call's JSON-RPC id
 */
export async function cancelCallRun(services: McpServices, caller: McpCaller, requestId: RequestId): Promise<void> {
  if (caller.session === undefined) return;
  const owner = caller.identity.userId;
  const pipelineRunId = callRunId(owner, caller.session, requestId);
  const record = await services.store.getOwned(pipelineRunId, owner);
  if (!record || runEnded(record)) return;
  await services.stopper.stop([{ pipelineRunId, owner }], 'CANCELLED');
}
