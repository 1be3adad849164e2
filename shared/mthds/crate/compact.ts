/**
 * Dropping absent members (spec §2.6 style: omitted, never null) from the plain objects of a crate entry.
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * A deep copy of a JSON-like value in which plain objects lose their `null` and `undefined` members; key order is kept.
 * Arrays keep their length; other objects (e.g. TOML dates) are kept as they are.
 * @param value - a crate entry or any part of one
 */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => compact(item)) as T;
  if (!isPlainObject(value)) return value;
  const kept = Object.entries(value).filter(([, member]) => member !== null && member !== undefined);
  return Object.fromEntries(kept.map(([key, member]) => [key, compact(member)])) as T;
}

/**
 * Compare two strings by UTF-16 code units (not locale): the key and path order of crates, stamps and locks
 * (docs/crate.md#crate-shape, docs/codegen.md#stamp-and-lock).
 * @returns negative, zero or positive, as `Array.prototype.sort` expects
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A map with its keys in ascending UTF-16 code unit order (the top-level maps of a crate, docs/crate.md#crate-shape).
 * @param entries - the map's entries, in any order
 */
export function sortedMap<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  return Object.fromEntries([...entries].sort(([a], [b]) => compareCodeUnits(a, b)));
}
