/**
 * Python `str()` rendering of values, so templates print what the reference runtime prints
 * (docs/runtime.md#template-context):
 * `True`, `False`, `None`, lists as `['a', 1]`, dicts as `{'k': 'v'}`.
 */

function repr(value: unknown): string {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  return pythonStr(value);
}

/**
 * Render a value as Python's `str()` would.
 * @param value - any JSON-like value; strings are returned as they are
 */
export function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(repr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, field]) => `${repr(key)}: ${repr(field)}`)
      .join(', ')}}`;
  }
  return String(value);
}
