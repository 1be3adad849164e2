/**
 * The methods catalog (`GET /v1/methods`, docs/api.md#methods-catalog): search by name or description, newest first,
 * paged by cursor.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { api, query } from '../api';
import { Empty, Loading, ProblemView } from '../components/states';
import { useLoad } from '../use-load';
import type { MethodItem } from '../wire';

/** The catalog page. */
export function MethodsPage() {
  const [search, setSearch] = useState('');
  const [pages, setPages] = useState<string[]>([]);
  const cursor = pages[pages.length - 1];
  const listed = useLoad(
    () =>
      api<{ items: MethodItem[]; next_cursor: string | null }>(`/v1/methods${query({ q: search, limit: 50, cursor })}`),
    [search, cursor],
  );
  return (
    <section>
      <div className="page-head">
        <h1>Methods</h1>
        <Link className="button" to="/methods/new">
          New method
        </Link>
      </div>
      <input
        type="search"
        className="search"
        aria-label="Search methods"
        placeholder="Search by name or description"
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setPages([]);
        }}
      />
      {listed.error ? <ProblemView error={listed.error} /> : null}
      {listed.loading ? <Loading what="the methods" /> : null}
      {listed.data && listed.data.items.length === 0 ? (
        <Empty title={search ? 'No method matches this search' : 'No method yet'}>
          <p>
            Create one from a <code>.mthds</code> bundle with <Link to="/methods/new">New method</Link>.
          </p>
        </Empty>
      ) : null}
      {listed.data && listed.data.items.length > 0 ? (
        <ul className="cards" data-testid="method-list">
          {listed.data.items.map((method) => (
            <li key={method.method_id} className="card">
              <Link to={`/methods/${method.method_id}`} className="card-title">
                {method.name}
              </Link>
              <p className="muted">{method.description ?? 'No description.'}</p>
              <p className="small">
                <code>{method.method_id}</code> · created {new Date(method.created_at).toLocaleString()}
                {method.deletion_state ? ` · being deleted (${method.deletion_state})` : ''}
              </p>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="pager">
        {pages.length > 0 ? (
          <button type="button" onClick={() => setPages(pages.slice(0, -1))}>
            Previous
          </button>
        ) : null}
        {listed.data?.next_cursor ? (
          <button type="button" onClick={() => setPages([...pages, listed.data!.next_cursor!])}>
            Next
          </button>
        ) : null}
      </div>
    </section>
  );
}
