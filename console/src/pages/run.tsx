/**
 * A run, live: its method's graph with each pipe's state following the run's events (`GET /v1/runs/{id}/events`,
 * docs/run-events.md), the pipe runs with their durations and tokens, usage and cost, the error report with its
 * failing pipe, the outputs once it completed (`GET /v1/runs/{id}/results`), and the cancel and retry buttons
 * (docs/cancellation.md, docs/checkpoints.md#retrying-a-run).
 */
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, followRunEvents, type RunEvent } from '../api';
import { MethodGraph } from '../components/method-graph';
import { OutputView } from '../components/output-view';
import { Empty, Loading, ProblemView } from '../components/states';
import { useLoad } from '../use-load';
import type { ErrorReport, GraphSpec, RunDetail, RunStatus, UsageTotal, ValidationVerdict } from '../wire';

const ENDED = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);

interface PipeRun {
  step: number;
  pipe_code: string;
  pipe_type: string;
  state: string;
  duration_ms?: number;
  tokens?: number;
}

/** The working memory as people read it: each named stuff's content, without its bookkeeping. */
function memoryContents(memory: unknown): Record<string, unknown> | null {
  const root = (memory as { root?: Record<string, { content?: unknown }> } | null | undefined)?.root;
  if (!root) return null;
  return Object.fromEntries(Object.entries(root).map(([name, stuff]) => [name, stuff?.content ?? stuff]));
}

/** The graph of the method the run runs: the validated version it names, else the bundle it was sent. */
async function runGraph(detail: RunDetail): Promise<GraphSpec | null> {
  const version = detail.method_version === null ? '' : `@${detail.method_version}`;
  const body = detail.method_id
    ? { method_id: `${detail.method_id}${version}` }
    : detail.mthds_contents
      ? { mthds_contents: detail.mthds_contents }
      : undefined;
  if (!body) return null;
  const verdict = await api<ValidationVerdict>('/v1/validate', { method: 'POST', body });
  return verdict.graph_spec ?? null;
}

function ErrorReportView({ report }: { report: ErrorReport }) {
  return (
    <div className="state state-error" role="alert" data-testid="run-error">
      <h3>{report.title ?? report.error_type}</h3>
      <p className="detail">{report.message}</p>
      <dl className="facts">
        <dt>Error type</dt>
        <dd>{report.type_uri ? <a href={report.type_uri}>{report.error_type}</a> : report.error_type}</dd>
        {report.pipe_code ? (
          <>
            <dt>Failing pipe</dt>
            <dd>{report.pipe_code}</dd>
          </>
        ) : null}
        {report.error_domain ? (
          <>
            <dt>Who acts</dt>
            <dd>{report.error_domain}</dd>
          </>
        ) : null}
        <dt>Retryable</dt>
        <dd>{report.retryable ? 'yes' : 'no'}</dd>
      </dl>
    </div>
  );
}

function UsageView({ usage }: { usage: UsageTotal | undefined }) {
  if (!usage) return <p className="muted">No inference call yet.</p>;
  return (
    <dl className="facts" data-testid="run-usage">
      <dt>Calls</dt>
      <dd>{usage.calls}</dd>
      <dt>Tokens in / out</dt>
      <dd>
        {usage.input_tokens} / {usage.output_tokens}
      </dd>
      <dt>Cost</dt>
      <dd>{usage.cost_usd === null ? 'unpriced' : `$${usage.cost_usd.toFixed(6)}`}</dd>
    </dl>
  );
}

/** The run's page. */
export function RunPage() {
  const { runId = '' } = useParams();
  const navigate = useNavigate();
  const detail = useLoad(() => api<RunDetail>(`/v1/runs/${encodeURIComponent(runId)}`), [runId]);
  const initialStatus = useLoad(() => api<RunStatus>(`/v1/runs/${encodeURIComponent(runId)}/status`), [runId]);
  const graph = useLoad(
    () => (detail.data ? runGraph(detail.data) : Promise.resolve(null)),
    [detail.data?.pipeline_run_id],
  );
  const [events, setEvents] = useState<RunEvent[]>([]);
  const [streamError, setStreamError] = useState<unknown>();
  const [status, setStatus] = useState<string>();
  const [actionError, setActionError] = useState<unknown>();
  useEffect(() => {
    setEvents([]);
    setStatus(undefined);
    setStreamError(undefined);
    const controller = new AbortController();
    followRunEvents(runId, (event) => setEvents((previous) => [...previous, event]), controller.signal).catch(
      (failure: unknown) => {
        if (!controller.signal.aborted) setStreamError(failure);
      },
    );
    return () => controller.abort();
  }, [runId]);
  const finished = events.find((event) => event.type === 'run:finished');
  const currentStatus = (finished?.['status'] as string | undefined) ?? status ?? initialStatus.data?.status;
  const results = useLoad(
    () =>
      currentStatus === 'COMPLETED'
        ? api<Record<string, unknown>>(`/v1/runs/${encodeURIComponent(runId)}/results`)
        : Promise.resolve(undefined),
    [runId, currentStatus],
  );

  const pipeRuns = useMemo(() => {
    const byStep = new Map<number, PipeRun>();
    for (const event of events) {
      if (event.type === 'run:started') byStep.clear();
      if (!event.type.startsWith('pipe:')) continue;
      const step = event['step'] as number;
      const usage = event['token_usage'] as { input_tokens: number; output_tokens: number } | undefined;
      byStep.set(step, {
        step,
        pipe_code: event['pipe_code'] as string,
        pipe_type: event['pipe_type'] as string,
        state: event.type === 'pipe:started' ? 'running' : event.type === 'pipe:finished' ? 'finished' : 'failed',
        ...(typeof event['duration_ms'] === 'number' ? { duration_ms: event['duration_ms'] } : {}),
        ...(usage ? { tokens: usage.input_tokens + usage.output_tokens } : {}),
      });
    }
    return [...byStep.values()];
  }, [events]);

  const ended = currentStatus !== undefined && ENDED.has(currentStatus);
  /** The pipe runs as shown: a run stopped (cancelled, timed out) stopped the pipes still running. */
  const shownRuns = useMemo(
    () =>
      pipeRuns.map((pipeRun) =>
        ended && currentStatus !== 'COMPLETED' && pipeRun.state === 'running'
          ? { ...pipeRun, state: 'stopped' }
          : pipeRun,
      ),
    [pipeRuns, ended, currentStatus],
  );

  const states = useMemo(() => {
    const found: Record<string, string> = {};
    for (const node of graph.data?.nodes ?? []) found[node.pipe_code] = ended ? 'not run' : 'queued';
    for (const run of shownRuns) found[run.pipe_code] = run.state;
    const live = (results.data?.['graph_spec'] as GraphSpec | null | undefined)?.nodes ?? [];
    for (const node of live) if (node.status === 'skipped') found[node.pipe_code] = 'skipped';
    return found;
  }, [graph.data, shownRuns, results.data, ended]);

  const durations = useMemo(
    () =>
      Object.fromEntries(
        shownRuns
          .filter((pipeRun) => pipeRun.duration_ms !== undefined)
          .map((pipeRun) => [pipeRun.pipe_code, `${pipeRun.duration_ms} ms`]),
      ),
    [shownRuns],
  );
  const lastUsage = [...events].reverse().find((event) => event['run_usage'] !== undefined)?.['run_usage'] as
    | UsageTotal
    | undefined;
  const finalUsage = (finished?.['usage'] as { total?: UsageTotal } | null | undefined)?.total;
  const usage = finalUsage ?? lastUsage ?? initialStatus.data?.usage?.total;
  const error = (finished?.['error'] as ErrorReport | null | undefined) ?? initialStatus.data?.error ?? undefined;

  async function cancel() {
    setActionError(undefined);
    try {
      const answer = await api<RunStatus>(`/v1/runs/${encodeURIComponent(runId)}/cancel`, { method: 'POST' });
      setStatus(answer.status);
    } catch (failure) {
      setActionError(failure);
    }
  }
  async function retry() {
    setActionError(undefined);
    try {
      const answer = await api<{ pipeline_run_id: string }>(`/v1/runs/${encodeURIComponent(runId)}/retry`, {
        method: 'POST',
      });
      navigate(`/runs/${encodeURIComponent(answer.pipeline_run_id)}`);
    } catch (failure) {
      setActionError(failure);
    }
  }

  if (detail.error) return <ProblemView error={detail.error} />;
  if (!detail.data) return <Loading what="the run" />;
  const run = detail.data;
  return (
    <section>
      <div className="page-head">
        <div>
          <h1>
            Run <code>{run.pipeline_run_id}</code>
          </h1>
          <p className="small">
            {run.method_id ? (
              <>
                Method <Link to={`/methods/${run.method_id}`}>{run.method_id}</Link>
                {run.method_version !== null ? ` version ${run.method_version}` : ''} ·{' '}
              </>
            ) : null}
            created {new Date(run.created_at).toLocaleString()}
            {run.retry_of ? (
              <>
                {' '}
                · retries <Link to={`/runs/${run.retry_of}`}>{run.retry_of}</Link>
              </>
            ) : null}
            {initialStatus.data?.workflow_id ? ` · queue job ${initialStatus.data.workflow_id}` : ''}
            {initialStatus.data?.trace_id ? (
              <span data-testid="run-trace"> · trace {initialStatus.data.trace_id}</span>
            ) : null}
          </p>
        </div>
        <div className="actions">
          <span className={`badge badge-${currentStatus ?? 'none'} big`} data-testid="run-status">
            {currentStatus ?? '…'}
          </span>
          {!ended ? (
            <button type="button" className="danger" onClick={cancel}>
              Cancel run
            </button>
          ) : null}
          {ended && currentStatus !== 'COMPLETED' ? (
            <button type="button" onClick={retry}>
              Retry
            </button>
          ) : null}
        </div>
      </div>
      {actionError ? <ProblemView error={actionError} /> : null}
      {streamError ? <ProblemView error={streamError} /> : null}
      {error ? <ErrorReportView report={error} /> : null}
      <div className="columns">
        <div className="stack grow">
          <h2>Graph</h2>
          {graph.error ? <ProblemView error={graph.error} /> : null}
          {graph.loading ? <Loading what="the graph" /> : null}
          {graph.data ? <MethodGraph spec={graph.data} states={states} notes={durations} /> : null}
          {!graph.loading && !graph.error && !graph.data ? (
            <Empty title="No graph">
              <p>This run's bundle is not kept, or it declares no main pipe.</p>
            </Empty>
          ) : null}
        </div>
        <aside className="stack side">
          <h2>Usage and cost</h2>
          <UsageView usage={usage} />
          <h2>Pipe runs</h2>
          {shownRuns.length === 0 ? (
            <p className="muted">{ended ? 'No pipe ran.' : 'Waiting for the first pipe…'}</p>
          ) : (
            <table data-testid="pipe-runs">
              <caption className="sr-only">Each pipe run, in start order</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Pipe</th>
                  <th scope="col">State</th>
                  <th scope="col">Time</th>
                  <th scope="col">Tokens</th>
                </tr>
              </thead>
              <tbody>
                {shownRuns.map((pipeRun) => (
                  <tr key={pipeRun.step}>
                    <td>{pipeRun.step}</td>
                    <td>
                      {pipeRun.pipe_code}
                      <div className="small muted">{pipeRun.pipe_type}</div>
                    </td>
                    <td>
                      <span className={`badge badge-${pipeRun.state}`}>{pipeRun.state}</span>
                    </td>
                    <td>{pipeRun.duration_ms === undefined ? '…' : `${pipeRun.duration_ms} ms`}</td>
                    <td>{pipeRun.tokens ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </aside>
      </div>
      {currentStatus === 'COMPLETED' ? (
        <div className="stack">
          <h2>Output</h2>
          {results.error ? <ProblemView error={results.error} /> : null}
          {results.data ? (
            <>
              <div data-testid="run-output">
                <OutputView value={results.data['main_stuff']} />
              </div>
              <details>
                <summary>Working memory</summary>
                <OutputView value={memoryContents(results.data['working_memory'])} />
              </details>
            </>
          ) : (
            <Loading what="the output" />
          )}
        </div>
      ) : null}
    </section>
  );
}
