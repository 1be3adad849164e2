/**
 * Sign-in: the person enters an API key (`plx_sk_…`, or the deployment's key) or a token once; it is checked with
 * `GET /v1/version` (every deployment serves it, behind the same authentication as every `/v1` route) and kept in
 * `sessionStorage` for the tab.
 */
import { type FormEvent, useState } from 'react';
import { checkToken, storeToken } from '../api';
import { ProblemView } from '../components/states';

/** The sign-in page. */
export function SignIn({ onSignedIn, expired }: { onSignedIn(token: string): void; expired: boolean }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await checkToken(token.trim());
      storeToken(token.trim());
      onSignedIn(token.trim());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <main className="sign-in">
      <form onSubmit={submit} className="card" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">MTHDS console</h1>
        <p className="muted">Sign in with an API key or a token of this deployment. It is kept for this tab only.</p>
        {expired ? (
          <p role="alert" className="field-problem">
            The server no longer accepts the key or token you signed in with: sign in again.
          </p>
        ) : null}
        <label htmlFor="token">API key or token</label>
        <input
          id="token"
          type="password"
          autoComplete="off"
          value={token}
          onChange={(event) => setToken(event.target.value)}
          required
        />
        <button type="submit" disabled={busy || token.trim() === ''}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        {error ? <ProblemView error={error} /> : null}
      </form>
    </main>
  );
}
