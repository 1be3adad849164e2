/**
 * JSON skeletons: the answers the README shows, JSON with ellipses (`…`) where a value varies or is left out, turned
 * into patterns a real answer is checked against.
 *
 * - `…` as a value matches any value; `"…"` any string; `"Validation error(s): …"` any string of that shape.
 * - `…` as an object member allows members the skeleton does not list; without it the members must be exactly those.
 * - `…` as the last array item allows more items; `[…]` matches any array.
 */

/** A parsed skeleton. */
export type Skeleton =
  | { kind: 'any' }
  | { kind: 'literal'; value: null | boolean | number }
  | { kind: 'string'; pattern: RegExp }
  | { kind: 'object'; members: [string, Skeleton][]; open: boolean }
  | { kind: 'array'; items: Skeleton[]; open: boolean };

const ELLIPSIS = '…';
const TOKEN = /\s*("(?:[^"\\]|\\.)*"|…|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}[\],:])/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const start = TOKEN.lastIndex;
    const match = TOKEN.exec(text);
    if (!match) {
      if (/^\s*$/.test(text.slice(start))) break;
      throw new Error(`skeleton: unexpected text at ${start}: ${text.slice(start, start + 20)}`);
    }
    tokens.push(match[1]!);
  }
  return tokens;
}

function stringPattern(literal: string): Skeleton {
  const value = JSON.parse(literal) as string;
  if (!value.includes(ELLIPSIS)) return { kind: 'string', pattern: new RegExp(`^${escapeRegExp(value)}$`, 's') };
  return { kind: 'string', pattern: new RegExp(`^${value.split(ELLIPSIS).map(escapeRegExp).join('.*')}$`, 's') };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Parse a skeleton.
 * @param text - JSON with ellipses
 * @throws Error naming the position of anything else
 */
export function parseSkeleton(text: string): Skeleton {
  const tokens = tokenize(text);
  let index = 0;
  const next = (): string => {
    const token = tokens[index++];
    if (token === undefined) throw new Error('skeleton: unexpected end');
    return token;
  };
  const expect = (token: string) => {
    const found = next();
    if (found !== token) throw new Error(`skeleton: expected ${token}, found ${found}`);
  };
  const value = (): Skeleton => {
    const token = next();
    if (token === ELLIPSIS) return { kind: 'any' };
    if (token === '{') {
      const members: [string, Skeleton][] = [];
      let open = false;
      while (tokens[index] !== '}') {
        if (tokens[index] === ELLIPSIS) {
          index += 1;
          open = true;
        } else {
          const key = JSON.parse(next()) as string;
          expect(':');
          members.push([key, value()]);
        }
        if (tokens[index] === ',') index += 1;
        else if (tokens[index] !== '}')
          throw new Error(`skeleton: expected , or } after a member, found ${tokens[index]}`);
      }
      index += 1;
      return { kind: 'object', members, open };
    }
    if (token === '[') {
      const items: Skeleton[] = [];
      let open = false;
      while (tokens[index] !== ']') {
        if (tokens[index] === ELLIPSIS && (tokens[index + 1] === ']' || tokens[index + 1] === undefined)) {
          index += 1;
          open = true;
        } else items.push(value());
        if (tokens[index] === ',') index += 1;
        else if (tokens[index] !== ']')
          throw new Error(`skeleton: expected , or ] after an item, found ${tokens[index]}`);
      }
      index += 1;
      return { kind: 'array', items, open };
    }
    if (token.startsWith('"')) return stringPattern(token);
    return { kind: 'literal', value: JSON.parse(token) as null | boolean | number };
  };
  const parsed = value();
  if (index !== tokens.length) throw new Error(`skeleton: trailing text from token ${tokens[index]}`);
  return parsed;
}

/**
 * Where a value departs from a skeleton.
 * @param skeleton - a parsed skeleton
 * @param actual - a JSON value
 * @param path - the path of `actual`, for the messages
 * @returns one message per departure, empty when the value matches
 */
export function skeletonMismatches(skeleton: Skeleton, actual: unknown, path = '$'): string[] {
  switch (skeleton.kind) {
    case 'any':
      return [];
    case 'literal':
      return actual === skeleton.value
        ? []
        : [`${path}: expected ${JSON.stringify(skeleton.value)}, got ${JSON.stringify(actual)}`];
    case 'string':
      return typeof actual === 'string' && skeleton.pattern.test(actual)
        ? []
        : [`${path}: expected a string matching ${skeleton.pattern}, got ${JSON.stringify(actual)}`];
    case 'array': {
      if (!Array.isArray(actual)) return [`${path}: expected an array, got ${JSON.stringify(actual)}`];
      const sizeOk = skeleton.open ? actual.length >= skeleton.items.length : actual.length === skeleton.items.length;
      const size = sizeOk
        ? []
        : [`${path}: expected ${skeleton.items.length} items${skeleton.open ? ' or more' : ''}, got ${actual.length}`];
      return [...size, ...skeleton.items.flatMap((item, at) => skeletonMismatches(item, actual[at], `${path}[${at}]`))];
    }
    case 'object': {
      if (actual === null || typeof actual !== 'object' || Array.isArray(actual))
        return [`${path}: expected an object, got ${JSON.stringify(actual)}`];
      const record = actual as Record<string, unknown>;
      const listed = new Set(skeleton.members.map(([key]) => key));
      const extra = skeleton.open ? [] : Object.keys(record).filter((key) => !listed.has(key));
      return [
        ...extra.map((key) => `${path}.${key}: not in the documented answer`),
        ...skeleton.members.flatMap(([key, member]) =>
          key in record ? skeletonMismatches(member, record[key], `${path}.${key}`) : [`${path}.${key}: missing`],
        ),
      ];
    }
  }
}
