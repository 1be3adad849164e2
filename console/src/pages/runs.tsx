/**
 * The run history (`GET /v1/runs`, docs/api.md#run-history): filters by state, method and creation range, paged by
 * cursor, refreshed live every few seconds while on; cancel the selected runs one by one, or every run the filters
 * match that has not ended (`POST /v1/runs/cancel`).
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, query } from '../api';
import { Empty, Loading, ProblemView } from '../components/states';
import { useLoad } from '../use-load';
import type { RunItem } from '../wire';

const STATES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'];
const ENDED = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT']);
const REFRESH_MS = 3000;

interface Filters {
  state: string;
  method_id: string;
  created_from: string;
  created_to: string;
}

/** A `datetime-local` value (the browser's time zone) as an instant with an offset. */
const instant = (local: string) => (local ? new Date(local).toISOString() : '');

function filterQuery(filters: Filters) {
  return {
    state: filters.state,
    method_id: filters.method_id.trim(),
    created_from: instant(filters.created_from),
    created_to: instant(filters.created_to),
  };
}

/** The history page. */
export function RunsPage() {
  const [draft, setDraft] = useState<Filters>({ state: '', method_id: '', created_from: '', created_to: '' });
  const [filters, setFilters] = useState(draft);
  const [pages, setPages] = useState<string[]>([]);
  const [live, setLive] = useState(true);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<string>();
  const [actionError, setActionError] = useState<unknown>();
  const cursor = pages[pages.length - 1];
  const runs = useLoad(
    () =>
      api<{ items: RunItem[]; next_cursor: string | null }>(
        `/v1/runs${query({ ...filterQuery(filters), limit: 50, cursor })}`,
      ),
    [filters, cursor],
  );
  const { reload } = runs;
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => reload(true), REFRESH_MS);
    return () => clearInterval(timer);
  }, [live, reload]);

  async function cancelSelected() {
    setActionError(undefined);
    let cancelled = 0;
    for (const id of selected) {
      try {
        await api(`/v1/runs/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
        cancelled++;
      } catch (failure) {
        setActionError(failure);
      }
    }
    setSelected(new Set());
    setNotice(`${cancelled} run(s) cancelled.`);
    reload(true);
  }
  async function cancelMatching() {
    if (!window.confirm('Cancel every run matching the filters that has not ended?')) return;
    setActionError(undefined);
    const body = Object.fromEntries(Object.entries(filterQuery(filters)).filter(([, value]) => value !== ''));
    try {
      const answer = await api<{ cancelled: number }>('/v1/runs/cancel', { method: 'POST', body });
      setNotice(`${answer.cancelled} run(s) cancelled.`);
      reload(true);
    } catch (failure) {
      setActionError(failure);
    }
  }
  const update = (member: keyof Filters) => (event: { target: { value: string } }) =>
    setDraft({ ...draft, [member]: event.target.value });
  return (
    <section>
      <div className="page-head">
        <h1>Runs</h1>
        <label className="inline">
          <input type="checkbox" checked={live} onChange={(event) => setLive(event.target.checked)} /> Live refresh
        </label>
      </div>
      <form
        className="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setPages([]);
          setFilters(draft);
        }}
      >
        <label>
          State
          <select name="state" value={draft.state} onChange={update('state')}>
            <option value="">Any</option>
            {STATES.map((state) => (
              <option key={state} value={state}>
                {state}
              </option>
            ))}
          </select>
        </label>
        <label>
          Method id
          <input name="method_id" value={draft.method_id} onChange={update('method_id')} placeholder="mt_…" />
        </label>
        <label>
          Created from
          <input
            name="created_from"
            type="datetime-local"
            value={draft.created_from}
            onChange={update('created_from')}
          />
        </label>
        <label>
          Created to
          <input name="created_to" type="datetime-local" value={draft.created_to} onChange={update('created_to')} />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <div className="actions">
        <button type="button" className="danger" disabled={selected.size === 0} onClick={cancelSelected}>
          Cancel selected ({selected.size})
        </button>
        <button type="button" className="danger" onClick={cancelMatching}>
          Cancel every unfinished run matching the filters
        </button>
        {notice ? <output>{notice}</output> : null}
      </div>
      {actionError ? <ProblemView error={actionError} /> : null}
      {runs.error ? <ProblemView error={runs.error} /> : null}
      {runs.loading ? <Loading what="the runs" /> : null}
      {runs.data && runs.data.items.length === 0 ? (
        <Empty title="No run matches">
          <p>Start one from a method's Run tab, or widen the filters.</p>
        </Empty>
      ) : null}
      {runs.data && runs.data.items.length > 0 ? (
        <table data-testid="runs-table">
          <caption className="sr-only">Runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">Select</span>
              </th>
              <th scope="col">Run</th>
              <th scope="col">State</th>
              <th scope="col">Method</th>
              <th scope="col">Created</th>
              <th scope="col">Tokens</th>
              <th scope="col">Cost</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.items.map((run) => (
              <tr key={run.pipeline_run_id} data-run={run.pipeline_run_id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select run ${run.pipeline_run_id}`}
                    disabled={ENDED.has(run.status)}
                    checked={selected.has(run.pipeline_run_id)}
                    onChange={(event) => {
                      const next = new Set(selected);
                      if (event.target.checked) next.add(run.pipeline_run_id);
                      else next.delete(run.pipeline_run_id);
                      setSelected(next);
                    }}
                  />
                </td>
                <td>
                  <Link to={`/runs/${encodeURIComponent(run.pipeline_run_id)}`}>{run.pipeline_run_id}</Link>
                </td>
                <td>
                  <span className={`badge badge-${run.status}`}>{run.status}</span>
                </td>
                <td>
                  {run.method_id ? <Link to={`/methods/${run.method_id}`}>{run.method_id}</Link> : 'inline'}
                  {run.method_version !== null ? ` @${run.method_version}` : ''}
                </td>
                <td>{new Date(run.created_at).toLocaleString()}</td>
                <td>{run.usage ? run.usage.input_tokens + run.usage.output_tokens : ''}</td>
                <td>{run.usage?.cost_usd != null ? `$${run.usage.cost_usd.toFixed(4)}` : ''}</td>
                <td>{run.error?.error_type ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div className="pager">
        {pages.length > 0 ? (
          <button type="button" onClick={() => setPages(pages.slice(0, -1))}>
            Newer
          </button>
        ) : null}
        {runs.data?.next_cursor ? (
          <button type="button" onClick={() => setPages([...pages, runs.data!.next_cursor!])}>
            Older
          </button>
        ) : null}
      </div>
    </section>
  );
}
