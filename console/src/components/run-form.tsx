/**
 * A pipe's input form, built from its `input_form` descriptor (docs/forms.md#form-descriptors): text, numbers,
 * booleans, dates, choices, lists, structures, and documents or images uploaded through an upload grant
 * (docs/uploads.md). The values are checked before submit; each input is sent as `{concept, content}` as the run
 * routes take it.
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import { uploadFile } from '../api';
import type { FormNode } from '../wire';
import { ProblemView } from './states';

/** A value as the form holds it, before it becomes content. */
type Held = string | boolean | File | undefined | Held[] | { [field: string]: Held };

function initial(node: FormNode): Held {
  if (node.kind === 'object')
    return Object.fromEntries((node.fields ?? []).map((field) => [field.name!, initial(field)]));
  if (node.kind === 'list')
    return node.item_count ? Array.from({ length: node.item_count }, () => initial(node.item!)) : [];
  if (node.kind === 'boolean') return false;
  if (node.default_value !== undefined && node.default_value !== null) return String(node.default_value);
  return undefined;
}

const blank = (value: Held) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** A problem with a held value, or nothing. */
function check(node: FormNode, value: Held, path: string, problems: Record<string, string>): void {
  if (blank(value)) {
    if (node.required && node.kind !== 'list') problems[path] = 'Required.';
    if (node.required && node.kind === 'list' && node.presence !== undefined && node.presence !== 'optional')
      problems[path] = 'Add at least one item.';
    return;
  }
  if (node.kind === 'number') {
    const number = Number(value);
    if (!Number.isFinite(number)) problems[path] = 'Not a number.';
    else if (node.integer && !Number.isInteger(number)) problems[path] = 'Not a whole number.';
  }
  if (node.kind === 'unknown') {
    try {
      JSON.parse(String(value));
    } catch {
      problems[path] = 'Not JSON.';
    }
  }
  if (node.kind === 'object' && typeof value === 'object' && !(value instanceof File) && !Array.isArray(value))
    for (const field of node.fields ?? []) check(field, value[field.name!], `${path}.${field.name}`, problems);
  if (node.kind === 'list' && Array.isArray(value))
    value.forEach((item, index) => {
      check({ ...node.item!, required: true }, item, `${path}[${index}]`, problems);
    });
}

/** The content of a held value, uploading files on the way. */
async function contentOf(node: FormNode, value: Held): Promise<unknown> {
  const concept = node.concept_ref !== undefined;
  switch (node.kind) {
    case 'prose':
      return { text: String(value ?? '') };
    case 'number':
      return concept ? { number: Number(value) } : Number(value);
    case 'boolean':
      return Boolean(value);
    case 'document':
    case 'image': {
      const file = value as File;
      return { url: await uploadFile(file), filename: file.name, mime_type: file.type || 'application/octet-stream' };
    }
    case 'object': {
      const held = (value ?? {}) as Record<string, Held>;
      const content: Record<string, unknown> = {};
      for (const field of node.fields ?? [])
        if (!blank(held[field.name!])) content[field.name!] = await contentOf(field, held[field.name!]);
      return content;
    }
    case 'list':
      return Promise.all(((value ?? []) as Held[]).map((item) => contentOf(node.item!, item)));
    case 'unknown':
      return JSON.parse(String(value));
    default:
      return String(value ?? '');
  }
}

function FieldInput({
  node,
  value,
  path,
  problems,
  onChange,
}: {
  node: FormNode;
  value: Held;
  path: string;
  problems: Record<string, string>;
  onChange(value: Held): void;
}) {
  const id = `field-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const label = `${node.name ?? 'Item'}${node.required ? '' : ' (optional)'}`;
  const problem = problems[path];
  const described = problem ? `${id}-problem` : undefined;
  const common = { id, 'aria-invalid': problem ? true : undefined, 'aria-describedby': described, 'data-field': path };
  let control: ReactNode;
  switch (node.kind) {
    case 'prose':
      control = (
        <textarea {...common} rows={3} value={String(value ?? '')} onChange={(event) => onChange(event.target.value)} />
      );
      break;
    case 'number':
      control = (
        <input
          {...common}
          type="number"
          step={node.integer ? 1 : 'any'}
          value={String(value ?? '')}
          onChange={(event) => onChange(event.target.value)}
        />
      );
      break;
    case 'boolean':
      control = (
        <input
          {...common}
          type="checkbox"
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
      );
      break;
    case 'date':
      control = (
        <input {...common} type="date" value={String(value ?? '')} onChange={(event) => onChange(event.target.value)} />
      );
      break;
    case 'enum':
      control = (
        <select {...common} value={String(value ?? '')} onChange={(event) => onChange(event.target.value)}>
          <option value="">Choose…</option>
          {(node.choices ?? []).map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      );
      break;
    case 'document':
    case 'image':
      control = (
        <input
          {...common}
          type="file"
          accept={node.kind === 'image' ? 'image/*' : '.pdf,application/pdf,text/plain,.docx,.pptx,.xlsx,.md'}
          onChange={(event) => onChange(event.target.files?.[0])}
        />
      );
      break;
    case 'object': {
      const held = (value ?? {}) as Record<string, Held>;
      return (
        <fieldset className="group">
          <legend>{label}</legend>
          {node.description ? <p className="small muted">{node.description}</p> : null}
          {(node.fields ?? []).map((field) => (
            <FieldInput
              key={field.name}
              node={field}
              value={held[field.name!]}
              path={`${path}.${field.name}`}
              problems={problems}
              onChange={(next) => onChange({ ...held, [field.name!]: next })}
            />
          ))}
          {(node.fields ?? []).length === 0 ? (
            <FieldInput
              node={{ kind: 'unknown', name: 'JSON', required: node.required }}
              value={value as Held}
              path={path}
              problems={problems}
              onChange={onChange}
            />
          ) : null}
        </fieldset>
      );
    }
    case 'list': {
      const items = (value ?? []) as Held[];
      return (
        <fieldset className="group">
          <legend>{label}</legend>
          {problem ? (
            <p id={described} className="field-problem">
              {problem}
            </p>
          ) : null}
          {items.map((item, index) => (
            // the items of a list have no identity but their place
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <div key={index} className="list-item">
              <FieldInput
                node={{ ...node.item!, name: `${node.name ?? 'Item'} ${index + 1}`, required: true }}
                value={item}
                path={`${path}[${index}]`}
                problems={problems}
                onChange={(next) => onChange(items.map((current, at) => (at === index ? next : current)))}
              />
              {node.item_count ? null : (
                <button type="button" className="link" onClick={() => onChange(items.filter((_, at) => at !== index))}>
                  Remove
                </button>
              )}
            </div>
          ))}
          {node.item_count ? null : (
            <button type="button" onClick={() => onChange([...items, initial(node.item!)])}>
              Add {node.item?.concept_ref ?? 'item'}
            </button>
          )}
        </fieldset>
      );
    }
    default:
      control = (
        <textarea
          {...common}
          rows={node.kind === 'unknown' ? 4 : 1}
          placeholder={node.kind === 'unknown' ? 'JSON' : undefined}
          value={String(value ?? '')}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {node.concept_ref ? <span className="muted small"> · {node.concept_ref}</span> : null}
      </label>
      {node.description ? <p className="small muted">{node.description}</p> : null}
      {control}
      {problem ? (
        <p id={described} className="field-problem">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The form of one pipe's inputs.
 * @param fields - the pipe's `input_form` fields
 * @param onSubmit - called with the run's `inputs` once every value checks and every file is uploaded
 */
export function RunForm({
  fields,
  onSubmit,
}: {
  fields: FormNode[];
  onSubmit(inputs: Record<string, unknown>): Promise<void>;
}) {
  const [values, setValues] = useState<Record<string, Held>>(() =>
    Object.fromEntries(fields.map((field) => [field.name!, initial(field)])),
  );
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const field of fields) check(field, values[field.name!], field.name!, found);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(undefined);
    try {
      const inputs: Record<string, unknown> = {};
      for (const field of fields) {
        const value = values[field.name!];
        if (blank(value)) continue;
        inputs[field.name!] = { concept: field.concept_ref, content: await contentOf(field, value) };
      }
      await onSubmit(inputs);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="stack run-form" onSubmit={submit} noValidate>
      {fields.length === 0 ? <p className="muted">This pipe takes no input.</p> : null}
      {fields.map((field) => (
        <FieldInput
          key={field.name}
          node={field}
          value={values[field.name!]}
          path={field.name!}
          problems={problems}
          onChange={(next) => setValues({ ...values, [field.name!]: next })}
        />
      ))}
      <button type="submit" disabled={busy}>
        {busy ? 'Starting…' : 'Run'}
      </button>
      {error ? <ProblemView error={error} /> : null}
    </form>
  );
}
