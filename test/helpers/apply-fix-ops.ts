/**
 * Applies the ops of a suggested fix (spec §2.7) to a bundle text with a style-preserving TOML editor
 * (`@decimalturn/toml-patch`): the ops edit the parsed data, then the editor patches the original text to match it,
 * keeping comments, alignment and table layout of everything the ops do not touch.
 */
import { parse, patch } from '@decimalturn/toml-patch';
import type { FixOp } from '../../shared/errors/index.js';

type Table = Record<string, unknown>;

function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

function tableAt(root: Table, path: readonly string[], create: boolean): Table | undefined {
  let node: Table = root;
  for (const segment of path) {
    if (!isTable(node[segment])) {
      if (!create) return undefined;
      node[segment] = {};
    }
    node = node[segment] as Table;
  }
  return node;
}

function renamed(table: Table, key: string, newKey: string): Table {
  return Object.fromEntries(Object.entries(table).map(([name, value]) => [name === key ? newKey : name, value]));
}

function applyOp(root: Table, op: FixOp): void {
  switch (op.kind) {
    case 'set_key': {
      const table = tableAt(root, op.table_path, false);
      if (table) table[op.key] = op.value;
      return;
    }
    case 'ensure_table':
      tableAt(root, op.table_path, true);
      return;
    case 'delete_key':
      delete tableAt(root, op.table_path, false)?.[op.key];
      return;
    case 'delete_table':
      delete tableAt(root, op.table_path.slice(0, -1), false)?.[op.table_path[op.table_path.length - 1]!];
      return;
    case 'rename_table_key': {
      const table = tableAt(root, op.table_path, false);
      if (!table || !(op.key in table)) return;
      if (op.table_path.length === 0) {
        const entries = renamed(table, op.key, op.new_key);
        for (const name of Object.keys(table)) delete table[name];
        Object.assign(table, entries);
        return;
      }
      tableAt(root, op.table_path.slice(0, -1), false)![op.table_path[op.table_path.length - 1]!] = renamed(
        table,
        op.key,
        op.new_key,
      );
      return;
    }
    case 'move_key': {
      const table = tableAt(root, op.table_path, false);
      if (!table || !(op.key in table)) return;
      const value = table[op.key];
      delete table[op.key];
      tableAt(root, op.new_table_path, true)![op.new_key] = value;
      return;
    }
    case 'remap_value': {
      const table = tableAt(root, op.table_path, false);
      const current = table?.[op.key];
      if (table && typeof current === 'string' && Object.hasOwn(op.mapping, current))
        table[op.key] = op.mapping[current];
      return;
    }
  }
}

/**
 * Apply fix ops to a bundle text, in order.
 * @param text - the bundle as written
 * @param ops - the fix's ops
 * @returns the patched text
 */
export function applyFixOps(text: string, ops: readonly FixOp[]): string {
  const data = parse(text) as Table;
  for (const op of ops) applyOp(data, op);
  return patch(text, data);
}
