/**
 * A new method: its name and its `.mthds` source, typed or loaded from a file, checked live in the editor; created
 * with `POST /v1/methods` once the source validates (the server refuses a draft that does not).
 */
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api';
import { BundleEditor, type EditorVerdict } from '../components/bundle-editor';
import { ProblemView } from '../components/states';
import type { MethodData } from '../wire';

const STARTER = `domain = "hello"
description = "Greet someone"
main_pipe = "greet"

[pipe.greet]
type = "PipeLLM"
description = "Write a greeting"
inputs = { name = "Text" }
output = "Text"
prompt = "Say hello to $name."
`;

/** The page creating a method. */
export function NewMethodPage() {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [source, setSource] = useState(STARTER);
  const [verdict, setVerdict] = useState<EditorVerdict>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  async function create(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const method = await api<MethodData>('/v1/methods', {
        method: 'POST',
        body: { name: name.trim(), mthds: source },
      });
      navigate(`/methods/${method.method_id}`);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  async function load(file: File | undefined) {
    if (!file) return;
    setSource(await file.text());
    if (!name) setName(file.name.replace(/\.mthds$/, ''));
  }
  const clean = verdict?.errors === 0;
  return (
    <section>
      <h1>New method</h1>
      <form onSubmit={create} className="stack">
        <label htmlFor="method-name">Name</label>
        <input
          id="method-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          required
          maxLength={200}
        />
        <label htmlFor="bundle-file">Load a .mthds file</label>
        <input
          id="bundle-file"
          type="file"
          accept=".mthds,.toml,text/plain"
          onChange={(event) => load(event.target.files?.[0])}
        />
        <BundleEditor value={source} onChange={setSource} onVerdict={setVerdict} label="Method source (.mthds)" />
        <p className="small" data-testid="editor-status" aria-live="polite">
          {verdict === undefined
            ? 'Checking…'
            : clean
              ? 'The source validates.'
              : `${verdict.errors} problem(s) to fix.`}
        </p>
        <button type="submit" disabled={busy || !clean || name.trim() === ''}>
          {busy ? 'Creating…' : 'Create method'}
        </button>
        {error ? <ProblemView error={error} /> : null}
      </form>
    </section>
  );
}
