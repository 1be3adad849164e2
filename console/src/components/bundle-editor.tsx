/**
 * The `.mthds` editor: CodeMirror 6 with live diagnostics. While the person types, the text goes to `POST /v1/lint`
 * (TOML grammar, duplicate keys, the bundle schema: diagnostics with their byte range) and, when that is clean, to
 * `POST /v1/validate` (references, data flow, dry run: items located by their field path, pipe or concept). Each
 * diagnostic is underlined where it applies; an item with a suggested fix offers it as an action, applied with a
 * style-preserving TOML editor (docs/suggested-fixes.md).
 */

import { type Diagnostic, linter, lintGutter } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { parse, patch } from '@decimalturn/toml-patch';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { api } from '../api';
import type { FixOp, LintDiagnostic, ValidationItem, ValidationVerdict } from '../wire';

/** The character offset of a UTF-8 byte offset of `text`. */
function charOffset(text: string, byteOffset: number): number {
  const bytes = new TextEncoder().encode(text);
  return new TextDecoder().decode(bytes.slice(0, byteOffset)).length;
}

interface Line {
  from: number;
  to: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let from = 0;
  for (const line of text.split('\n')) {
    lines.push({ from, to: from + line.length, text: line });
    from += line.length + 1;
  }
  return lines;
}

const bare = (segment: string) => segment.replace(/\[\d+\]$/, '').replace(/^"|"$/g, '');
const headerOf = (line: string) => /^\s*\[\s*([^\]]+?)\s*\]/.exec(line)?.[1]?.replace(/["\s]/g, '');

/**
 * Where a validation item applies: the line of its key (`field_path`, a dotted TOML path), else the header of its
 * pipe or concept, else the first line.
 */
function locate(text: string, item: ValidationItem): { from: number; to: number } {
  const lines = linesOf(text);
  const path = (item.field_path ?? '').split('.').filter(Boolean).map(bare);
  const keyLine = (start: number, key: string) => {
    const pattern = new RegExp(`^\\s*"?${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?\\s*=`);
    for (let index = start; index < lines.length; index++) {
      const line = lines[index]!;
      if (headerOf(line.text) !== undefined) return undefined;
      if (pattern.test(line.text)) return line;
    }
    return undefined;
  };
  for (let length = path.length - 1; length >= 1; length--) {
    const header = path.slice(0, length).join('.');
    const index = lines.findIndex((line) => headerOf(line.text) === header);
    if (index < 0) continue;
    const found = keyLine(index + 1, path[length]!);
    const line = found ?? lines[index]!;
    return { from: line.from, to: line.to };
  }
  if (path.length === 1) {
    const found = keyLine(0, path[0]!);
    if (found) return { from: found.from, to: found.to };
  }
  const table = item.pipe_code ? `pipe.${item.pipe_code}` : item.concept_code ? `concept.${item.concept_code}` : '';
  const header = lines.find((line) => table && headerOf(line.text) === table) ?? lines[0]!;
  return { from: header.from, to: Math.max(header.to, header.from + 1) };
}

type Table = Record<string, unknown>;
const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

function tableAt(root: Table, path: readonly string[], create: boolean): Table | undefined {
  let node = root;
  for (const segment of path) {
    if (!isTable(node[segment])) {
      if (!create) return undefined;
      node[segment] = {};
    }
    node = node[segment] as Table;
  }
  return node;
}

function applyOp(root: Table, op: FixOp): void {
  const table = tableAt(root, op.table_path, op.kind === 'ensure_table');
  const key = op.key ?? '';
  switch (op.kind) {
    case 'set_key':
      if (table) table[key] = op.value;
      return;
    case 'delete_key':
      if (table) delete table[key];
      return;
    case 'delete_table': {
      const parent = tableAt(root, op.table_path.slice(0, -1), false);
      if (parent) delete parent[op.table_path[op.table_path.length - 1]!];
      return;
    }
    case 'rename_table_key':
      if (table && key in table) {
        const entries = Object.entries(table).map(([name, value]) => [name === key ? op.new_key! : name, value]);
        for (const name of Object.keys(table)) delete table[name];
        Object.assign(table, Object.fromEntries(entries));
      }
      return;
    case 'move_key':
      if (table && key in table) {
        const value = table[key];
        delete table[key];
        tableAt(root, op.new_table_path ?? [], true)![op.new_key ?? key] = value;
      }
      return;
    case 'remap_value': {
      const current = table?.[key];
      if (table && typeof current === 'string' && op.mapping && Object.hasOwn(op.mapping, current))
        table[key] = op.mapping[current];
      return;
    }
    case 'ensure_table':
      return;
  }
}

/**
 * Apply a suggested fix's operations to a bundle text, keeping its comments and layout.
 * @throws Error when the text is not TOML (a fix is offered only on a text that parses)
 */
function applyFix(text: string, ops: FixOp[]): string {
  const data = parse(text) as Table;
  for (const op of ops) applyOp(data, op);
  return patch(text, data);
}

/** What the editor found in the current text. */
export interface EditorVerdict {
  /** Diagnostics (lint and validation errors) shown, 0 when the text validates. */
  errors: number;
  /** The validation verdict, when lint was clean. */
  verdict: ValidationVerdict | undefined;
}

async function diagnose(text: string, report: (verdict: EditorVerdict) => void): Promise<Diagnostic[]> {
  const { diagnostics } = await api<{ diagnostics: LintDiagnostic[] }>('/v1/lint', {
    method: 'POST',
    body: { content: text },
  });
  if (diagnostics.length > 0) {
    report({ errors: diagnostics.length, verdict: undefined });
    return diagnostics.map((diagnostic) => {
      const from = diagnostic.range ? charOffset(text, diagnostic.range.start_offset) : 0;
      const to = diagnostic.range ? charOffset(text, diagnostic.range.end_offset) : Math.min(text.length, 1);
      return {
        from,
        to: Math.max(to, from + (from < text.length ? 1 : 0)),
        severity: 'error',
        message: diagnostic.message,
        source: diagnostic.kind,
      };
    });
  }
  const verdict = await api<ValidationVerdict>('/v1/validate', {
    method: 'POST',
    body: { mthds_contents: [text], mthds_sources: ['method.mthds'], views: ['input_form'] },
  });
  const items = verdict.validation_errors ?? [];
  report({ errors: items.length, verdict });
  const warnings = (verdict.warnings ?? []).map((item) => ({ item, severity: 'warning' as const }));
  return [...items.map((item) => ({ item, severity: 'error' as const })), ...warnings].map(({ item, severity }) => {
    const { from, to } = locate(text, item);
    const fix = item.suggested_fix;
    return {
      from,
      to,
      severity,
      source: item.error_type ?? item.category,
      message: fix ? `${item.message} Suggested fix: ${fix.description}` : item.message,
      ...(fix
        ? {
            actions: [
              {
                name: `Apply fix (${fix.fix_code})`,
                apply(view: EditorView) {
                  const current = view.state.doc.toString();
                  view.dispatch({ changes: { from: 0, to: current.length, insert: applyFix(current, fix.ops) } });
                },
              },
            ],
          }
        : {}),
    };
  });
}

/**
 * The editor.
 * @param value - the text; a change from outside (a format, a reload) replaces the editor's
 * @param onChange - each edit's new text
 * @param onVerdict - what the last diagnosis found
 */
export function BundleEditor({
  value,
  onChange,
  onVerdict,
  label,
}: {
  value: string;
  onChange(text: string): void;
  onVerdict(verdict: EditorVerdict): void;
  label: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView>(null);
  const callbacks = useRef({ onChange, onVerdict });
  callbacks.current = { onChange, onVerdict };
  // biome-ignore lint/correctness/useExhaustiveDependencies: the view is made once; later values arrive below
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      doc: value,
      extensions: [
        basicSetup,
        // wrapped lines and a growing height: the editor never scrolls on its own, the page does
        EditorView.lineWrapping,
        lintGutter(),
        linter((current) => diagnose(current.state.doc.toString(), (found) => callbacks.current.onVerdict(found)), {
          delay: 400,
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ 'aria-label': label }),
      ],
    });
    // keyboard access to the scrolling area itself, as a long line or a tall text makes it scroll
    editor.scrollDOM.tabIndex = 0;
    editor.scrollDOM.setAttribute('aria-label', `${label}: scrolling area`);
    view.current = editor;
    return () => editor.destroy();
  }, []);
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value)
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);
  return <div className="editor" ref={host} data-testid="bundle-editor" />;
}
