/**
 * API keys (docs/api.md#api-keys): the organization's live keys; create one with a label, rotate one (a new key, the
 * old one revoked), revoke one. A new key's plaintext is shown once, here, and never again. The deployment's own key
 * (the bootstrap admin) names the organization it acts on.
 */
import { type FormEvent, useState } from 'react';
import { api, query } from '../api';
import { Empty, Loading, ProblemView } from '../components/states';
import { useLoad } from '../use-load';
import type { ApiKey, IssuedKey } from '../wire';

/** The keys page. */
export function KeysPage() {
  const [organization, setOrganization] = useState('');
  const [label, setLabel] = useState('');
  const [issued, setIssued] = useState<IssuedKey>();
  const [error, setError] = useState<unknown>();
  const scope = { organization_id: organization.trim() };
  const keys = useLoad(() => api<{ keys: ApiKey[] }>(`/v1/pipelex-api-keys${query(scope)}`), [organization]);
  async function act(call: () => Promise<IssuedKey | undefined>) {
    setError(undefined);
    try {
      const made = await call();
      setIssued(made);
      keys.reload(true);
    } catch (failure) {
      setError(failure);
    }
  }
  function create(event: FormEvent) {
    event.preventDefault();
    void act(async () => {
      const body = { label: label.trim(), ...(scope.organization_id ? scope : {}) };
      const made = await api<IssuedKey>('/v1/pipelex-api-keys', { method: 'POST', body });
      setLabel('');
      return made;
    });
  }
  return (
    <section>
      <h1>API keys</h1>
      <form className="filters" onSubmit={create}>
        <label>
          Label
          <input
            name="label"
            value={label}
            onChange={(event) => setLabel(event.target.value)}
            required
            maxLength={200}
          />
        </label>
        <label>
          Organization (deployment key only)
          <input
            name="organization_id"
            value={organization}
            onChange={(event) => setOrganization(event.target.value)}
            placeholder="org_…"
          />
        </label>
        <button type="submit" disabled={label.trim() === ''}>
          Create key
        </button>
      </form>
      {issued ? (
        <div className="card notice" role="status" data-testid="issued-key">
          <h2>New key “{issued.label}”</h2>
          <p>Copy it now: it is shown this once and cannot be read again.</p>
          <code className="secret">{issued.api_key}</code>
          <button type="button" onClick={() => setIssued(undefined)}>
            Done
          </button>
        </div>
      ) : null}
      {error ? <ProblemView error={error} /> : null}
      {keys.error ? <ProblemView error={keys.error} /> : null}
      {keys.loading ? <Loading what="the keys" /> : null}
      {keys.data && keys.data.keys.length === 0 ? <Empty title="No live key" /> : null}
      {keys.data && keys.data.keys.length > 0 ? (
        <table data-testid="keys-table">
          <caption className="sr-only">Live keys, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Label</th>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.keys.map((key) => (
              <tr key={key.id} data-key={key.id} data-label={key.label}>
                <td>{key.label}</td>
                <td>
                  <code>{key.prefix}…</code>
                </td>
                <td>{new Date(key.created_at).toLocaleString()}</td>
                <td>{key.last_used_at ? new Date(key.last_used_at).toLocaleString() : 'never'}</td>
                <td>{key.expires_at ? new Date(key.expires_at).toLocaleString() : 'never'}</td>
                <td className="actions">
                  <button
                    type="button"
                    onClick={() => {
                      if (
                        window.confirm(
                          `Rotate the key “${key.label}”? A new key replaces it, and it is revoked at once.`,
                        )
                      )
                        void act(() =>
                          api<IssuedKey>(`/v1/pipelex-api-keys/${key.id}/rotate${query(scope)}`, { method: 'POST' }),
                        );
                    }}
                  >
                    Rotate
                  </button>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Revoke ${key.label}`}
                    onClick={() => {
                      if (window.confirm(`Revoke the key “${key.label}”? Callers using it are refused at once.`))
                        void act(async () => {
                          await api(`/v1/pipelex-api-keys/${key.id}${query(scope)}`, { method: 'DELETE' });
                          return undefined;
                        });
                    }}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
