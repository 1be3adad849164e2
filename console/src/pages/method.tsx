/**
 * A method's page: its graph, concepts and contracts (from `POST /v1/validate` of its draft), the editor of its
 * source (save formats it with `POST /v1/format` and writes the draft; publish makes the next version), its versions,
 * and the run form of its main pipe (`POST /v1/start` with its `method_id`, then the run's page).
 */
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError, api } from '../api';
import { BundleEditor, type EditorVerdict } from '../components/bundle-editor';
import { MethodGraph } from '../components/method-graph';
import { RunForm } from '../components/run-form';
import { Empty, Loading, ProblemView } from '../components/states';
import { useLoad } from '../use-load';
import { type MethodData, methodFiles, type ValidationVerdict, type VersionSummary } from '../wire';

const TABS = ['overview', 'editor', 'run', 'versions'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = {
  overview: 'Graph and contracts',
  editor: 'Editor',
  run: 'Run',
  versions: 'Versions',
};

function validateDraft(method: MethodData): Promise<ValidationVerdict> {
  const files = methodFiles(method.mthds);
  return api<ValidationVerdict>('/v1/validate', {
    method: 'POST',
    body: {
      mthds_contents: files.map((file) => file.content),
      mthds_sources: files.map((file) => file.name),
      views: ['input_form'],
    },
  });
}

function Overview({ verdict }: { verdict: ValidationVerdict }) {
  if (!verdict.is_valid)
    return (
      <div className="state state-error" role="alert">
        <h3>The draft does not validate</h3>
        <ul>
          {(verdict.validation_errors ?? []).map((item) => (
            <li key={`${item.field_path}-${item.message}`}>{item.message}</li>
          ))}
        </ul>
      </div>
    );
  const concepts = Object.entries(verdict.graph_spec?.concept_registry ?? {});
  const contracts = Object.entries(verdict.pipe_io_contracts ?? {});
  return (
    <div className="stack">
      <h2>Graph</h2>
      {verdict.graph_spec ? (
        <MethodGraph spec={verdict.graph_spec} />
      ) : (
        <Empty title="No graph">
          <p>The method declares no main pipe to draw.</p>
        </Empty>
      )}
      <h2>Contracts</h2>
      <table>
        <caption className="sr-only">Inputs and output of each pipe</caption>
        <thead>
          <tr>
            <th scope="col">Pipe</th>
            <th scope="col">Inputs</th>
            <th scope="col">Output</th>
          </tr>
        </thead>
        <tbody>
          {contracts.map(([pipe, contract]) => (
            <tr key={pipe}>
              <td>
                <code>{pipe}</code>
                {pipe === verdict.default_pipe_ref ? <span className="badge">main</span> : null}
              </td>
              <td>
                {Object.entries(contract.inputs).map(([name, slot]) => (
                  <div key={name}>
                    {name}: <code>{slot.concept_ref}</code>
                    {slot.multiplicity !== 'single' ? ` (${slot.multiplicity})` : ''}
                    {slot.presence && slot.presence !== 'plain' ? ` ${slot.presence}` : ''}
                  </div>
                ))}
              </td>
              <td>
                <code>{contract.output.concept_ref}</code>
                {contract.output.multiplicity !== 'single' ? ` (${contract.output.multiplicity})` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Concepts</h2>
      <table>
        <caption className="sr-only">Concepts the method reads or writes</caption>
        <thead>
          <tr>
            <th scope="col">Concept</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {concepts.map(([ref, concept]) => (
            <tr key={ref}>
              <td>
                <code>{ref}</code>
              </td>
              <td>{concept.description ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Editor({ method, onSaved }: { method: MethodData; onSaved(method: MethodData): void }) {
  const files = methodFiles(method.mthds);
  const [text, setText] = useState(files[0]!.content);
  const [verdict, setVerdict] = useState<EditorVerdict>();
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  async function save() {
    setBusy(true);
    setError(undefined);
    try {
      const formatted = await api<{ formatted: string; changed: boolean }>('/v1/format', {
        method: 'POST',
        body: { content: text },
      });
      setText(formatted.formatted);
      const rest = files.slice(1);
      const mthds =
        rest.length === 0
          ? formatted.formatted
          : JSON.stringify([{ name: files[0]!.name, content: formatted.formatted }, ...rest]);
      const saved = await api<MethodData>(`/v1/methods/${method.method_id}/draft`, {
        method: 'PUT',
        body: { mthds, expected_updated_at: method.updated_at },
      });
      setStatus(`Draft saved${formatted.changed ? ' (formatted)' : ''}.`);
      onSaved(saved);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  async function publish() {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await api<{ outcome: string; version?: VersionSummary; message?: string; method: MethodData }>(
        `/v1/methods/${method.method_id}/publish`,
        { method: 'POST', body: { expected_draft_updated_at: method.updated_at } },
      );
      setStatus(
        answer.outcome === 'published'
          ? `Published version ${answer.version?.version}.`
          : answer.outcome === 'unchanged'
            ? `Unchanged: version ${answer.version?.version} already holds this draft.`
            : `Refused: ${answer.message ?? answer.outcome}`,
      );
      onSaved(answer.method);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  const dirty = text !== files[0]!.content;
  return (
    <div className="stack">
      {files.length > 1 ? (
        <p className="muted small">
          Editing {files[0]!.name}, the first of {files.length} files.
        </p>
      ) : null}
      <BundleEditor
        value={text}
        onChange={(next) => {
          setText(next);
          setVerdict(undefined);
        }}
        onVerdict={setVerdict}
        label="Method source (.mthds)"
      />
      <p className="small" data-testid="editor-status" aria-live="polite">
        {verdict === undefined
          ? 'Checking…'
          : verdict.errors === 0
            ? 'The source validates.'
            : `${verdict.errors} problem(s) to fix.`}
      </p>
      <div className="actions">
        <button type="button" onClick={save} disabled={busy || verdict?.errors !== 0 || !dirty}>
          Format and save
        </button>
        <button type="button" onClick={publish} disabled={busy || dirty}>
          Publish
        </button>
        {status ? (
          <output className="status" data-testid="publish-status">
            {status}
          </output>
        ) : null}
      </div>
      {error ? <ProblemView error={error} /> : null}
    </div>
  );
}

function Versions({ method }: { method: MethodData }) {
  const versions = useLoad(
    () => api<{ items: VersionSummary[] }>(`/v1/methods/${method.method_id}/versions`),
    [method.method_id, method.latest_version?.version],
  );
  if (versions.error) return <ProblemView error={versions.error} />;
  if (!versions.data) return <Loading what="the versions" />;
  if (versions.data.items.length === 0)
    return (
      <Empty title="Not published yet">
        <p>Publish the draft from the editor to make version 1.</p>
      </Empty>
    );
  return (
    <table>
      <caption className="sr-only">Published versions</caption>
      <thead>
        <tr>
          <th scope="col">Version</th>
          <th scope="col">Published</th>
          <th scope="col">By</th>
          <th scope="col">Digest</th>
        </tr>
      </thead>
      <tbody>
        {versions.data.items.map((version) => (
          <tr key={version.version}>
            <td>{version.version}</td>
            <td>{new Date(version.published_at).toLocaleString()}</td>
            <td>{version.published_by}</td>
            <td>
              <code>{version.source_digest.slice(0, 12)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Run a stored method and return its run id: on the queue (`POST /v1/start`), or, on a deployment without one (400
 * `StartRequiresAsyncOrchestration`), as a blocking `POST /v1/execute`, whose answer — success or the run's failure —
 * names the run.
 * @throws ApiError when the run is refused before it starts
 */
async function startRun(methodId: string, inputs: Record<string, unknown>): Promise<string> {
  const body = { method_id: methodId, inputs };
  try {
    return (await api<{ pipeline_run_id: string }>('/v1/start', { method: 'POST', body })).pipeline_run_id;
  } catch (failure) {
    if (!(failure instanceof ApiError) || failure.problem.error_type !== 'StartRequiresAsyncOrchestration')
      throw failure;
  }
  try {
    return (await api<{ pipeline_run_id: string }>('/v1/execute', { method: 'POST', body })).pipeline_run_id;
  } catch (failure) {
    const runId = failure instanceof ApiError ? failure.headers.get('X-Pipeline-Run-Id') : null;
    if (runId) return runId;
    throw failure;
  }
}

function RunTab({ method, verdict }: { method: MethodData; verdict: ValidationVerdict }) {
  const navigate = useNavigate();
  const pipe = verdict.default_pipe_ref;
  const form = pipe ? verdict.input_form?.[pipe] : undefined;
  if (!pipe || !form)
    return (
      <Empty title="Nothing to run">
        <p>The method needs a main pipe to run.</p>
      </Empty>
    );
  return (
    <div className="stack">
      <p className="muted">
        Runs <code>{pipe}</code> of{' '}
        {method.latest_published ? `version ${method.latest_published.version}` : 'the draft (never published)'}: on the
        queue, or, on a deployment without one, as a blocking run whose page opens once it ended.
      </p>
      <RunForm
        fields={form.fields}
        onSubmit={async (inputs) => navigate(`/runs/${encodeURIComponent(await startRun(method.method_id, inputs))}`)}
      />
    </div>
  );
}

/** The method's page. */
export function MethodPage() {
  const { methodId = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const tab: Tab = TABS.find((name) => name === search.get('tab')) ?? 'overview';
  const [saved, setSaved] = useState<MethodData>();
  const loaded = useLoad(() => api<MethodData>(`/v1/methods/${encodeURIComponent(methodId)}`), [methodId]);
  const method = saved?.method_id === methodId ? saved : loaded.data;
  const verdict = useLoad(
    () => (method ? validateDraft(method) : Promise.resolve(undefined)),
    [method?.method_id, method?.draft_digest],
  );
  if (loaded.error) return <ProblemView error={loaded.error} />;
  if (!method) return <Loading what="the method" />;
  return (
    <section>
      <div className="page-head">
        <div>
          <h1>{method.name}</h1>
          <p className="muted">{method.description ?? 'No description.'}</p>
          <p className="small">
            <code>{method.method_id}</code> ·{' '}
            {method.latest_published ? `published version ${method.latest_published.version}` : 'never published'}
          </p>
        </div>
      </div>
      <div role="tablist" aria-label="Method" className="tabs">
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? 'active' : ''}
            onClick={() => setSearch({ tab: name })}
          >
            {TAB_LABELS[name]}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={TAB_LABELS[tab]}>
        {tab === 'editor' ? <Editor method={method} onSaved={setSaved} /> : null}
        {tab === 'versions' ? <Versions method={method} /> : null}
        {tab === 'overview' || tab === 'run' ? (
          verdict.error ? (
            <ProblemView error={verdict.error} />
          ) : !verdict.data ? (
            <Loading what="the method's graph" />
          ) : tab === 'overview' ? (
            <Overview verdict={verdict.data} />
          ) : (
            <RunTab method={method} verdict={verdict.data} />
          )
        ) : null}
      </div>
    </section>
  );
}
