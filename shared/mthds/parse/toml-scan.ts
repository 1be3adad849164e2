/**
 * A linear, iterative pre-scan of a `.mthds` text, run before any TOML parser sees it (docs/limits.md#toml-depth).
 *
 * It is a lexical scan, not a parser: it knows strings (the four TOML kinds), comments, `[table]` / `[[array]]`
 * headers, dots between key segments, and the brackets of inline tables and arrays — enough to measure how deep the
 * data of a text nests, and where, without building it. A text that is not valid TOML is measured all the same: the
 * parsers refuse it at its first error, and the scan agrees with them on every valid prefix.
 *
 * Depth counts tables and arrays from the root table (depth 1), as JSON depth does: `a = 1` is depth 1, `a.b = 1`
 * and `[a]` depth 2, `[[a.b]]` depth 4 (root, `a`, the array `b`, its element), `k = [{ x = 1 }]` depth 3.
 *
 * The scan also reports tokens too long for `toml-eslint-parser`, whose tokenizer builds each string, quoted key and
 * number with `String.fromCodePoint(...codePoints)`: one call argument per character, a stack overflow past about
 * 100,000 characters (shared/tooling/mask-long-tokens.ts hides them from it).
 *
 * @see docs/rules.md, spec §8
 */

/** Deepest nesting of a `.mthds` text, in tables and arrays from the root table (depth 1). A language limit. */
export const MAX_TOML_DEPTH = 32;

/** A token of the text longer than the scan's `longToken` threshold; `[start, end)` are string indices. */
export interface LongToken {
  /**
   * `string`: a whole value string, delimiters included; `key`: a whole quoted key segment, quotes included; `bare`:
   * a run of a value that is not a string (a number, a date, or junk).
   */
  kind: 'string' | 'key' | 'bare';
  start: number;
  end: number;
}

/** The first place the text nests past the limit. */
export interface TooDeep {
  /** String index of the key, header or bracket that opens the level past the limit. */
  index: number;
  /** The depth reached there: a whole dotted key's or header's depth, or `maxDepth + 1` for a bracket. */
  depth: number;
}

/** What the scan found. */
export interface TomlScan {
  /** Set when the text nests deeper than `maxDepth`; the scan stops there. */
  tooDeep?: TooDeep;
  /** Tokens longer than `longToken`, in text order (complete only when `tooDeep` is unset). */
  longTokens: LongToken[];
}

/** Options of {@link scanToml}. */
export interface TomlScanOptions {
  /** Deepest nesting allowed. @defaultValue {@link MAX_TOML_DEPTH} */
  maxDepth?: number;
  /** Length in UTF-16 code units past which a token is reported in `longTokens`. @defaultValue Infinity (none) */
  longToken?: number;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const BACKSLASH = 0x5c;
const DOT = 0x2e;
const EQUALS = 0x3d;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const VALUE_STOPS = new Set([
  SPACE,
  TAB,
  NEWLINE,
  CARRIAGE_RETURN,
  HASH,
  QUOTE,
  APOSTROPHE,
  COMMA,
  OPEN_BRACKET,
  CLOSE_BRACKET,
  OPEN_BRACE,
  CLOSE_BRACE,
]);
const KEY_STOPS = new Set([...VALUE_STOPS, DOT, EQUALS]);

/**
 * The end of the string opening at `start` (on `"` or `'`): the index just past its closing delimiter; an
 * unterminated string ends at its line break (single-line) or at the end of the text.
 */
function stringEnd(text: string, start: number): number {
  const quote = text.charCodeAt(start);
  const escapes = quote === QUOTE;
  if (text.charCodeAt(start + 1) === quote && text.charCodeAt(start + 2) === quote) {
    for (let index = start + 3; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (escapes && code === BACKSLASH) index += 1;
      else if (code === quote && text.charCodeAt(index + 1) === quote && text.charCodeAt(index + 2) === quote) {
        let run = 3;
        while (text.charCodeAt(index + run) === quote) run += 1;
        return index + run;
      }
    }
    return text.length;
  }
  for (let index = start + 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (escapes && code === BACKSLASH && text.charCodeAt(index + 1) !== NEWLINE) index += 1;
    else if (code === quote) return index + 1;
    else if (code === NEWLINE) return index;
  }
  return text.length;
}

function runEnd(text: string, start: number, stops: ReadonlySet<number>): number {
  let index = start;
  while (index < text.length && !stops.has(text.charCodeAt(index))) index += 1;
  return index;
}

/** One open inline table or array. */
interface Frame {
  kind: 'table' | 'array';
  depth: number;
}

/** The scanner's state over one text. */
class TomlScanner {
  readonly longTokens: LongToken[] = [];
  private readonly frames: Frame[] = [];
  /** Depth of the table the current header opened (the root table: 1). */
  private tableDepth = 1;
  private expectingKey = true;
  private atLineStart = true;
  private keyDots = 0;
  private keyStart = -1;
  /** Depth of the container a value at this point belongs to. */
  private valueDepth = 1;
  private index = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly longToken: number,
  ) {}

  scan(): TooDeep | undefined {
    const { text } = this;
    while (this.index < text.length) {
      const code = text.charCodeAt(this.index);
      if (code === NEWLINE) {
        if (this.frames.length === 0) this.startKey(true);
        this.index += 1;
      } else if (code === SPACE || code === TAB || code === CARRIAGE_RETURN) {
        this.index += 1;
      } else if (code === HASH) {
        while (this.index < text.length && text.charCodeAt(this.index) !== NEWLINE) this.index += 1;
      } else {
        const tooDeep = this.expectingKey ? this.keyCharacter(code) : this.valueCharacter(code);
        if (tooDeep) return tooDeep;
      }
    }
    return undefined;
  }

  private startKey(atLineStart: boolean): void {
    this.expectingKey = true;
    this.atLineStart = atLineStart;
    this.keyDots = 0;
    this.keyStart = -1;
  }

  private containerDepth(): number {
    return this.frames.at(-1)?.depth ?? this.tableDepth;
  }

  private report(kind: LongToken['kind'], start: number, end: number): void {
    if (end - start > this.longToken) this.longTokens.push({ kind, start, end });
  }

  private keyCharacter(code: number): TooDeep | undefined {
    const start = this.index;
    if (this.atLineStart && this.frames.length === 0 && code === OPEN_BRACKET) return this.header();
    this.atLineStart = false;
    if (this.keyStart < 0) this.keyStart = start;
    if (code === QUOTE || code === APOSTROPHE) {
      this.index = stringEnd(this.text, start);
      this.report('key', start, this.index);
    } else if (code === DOT) {
      this.keyDots += 1;
      this.index += 1;
    } else if (code === EQUALS) {
      const depth = this.containerDepth() + this.keyDots;
      if (depth > this.maxDepth) return { index: this.keyStart, depth };
      this.valueDepth = depth;
      this.expectingKey = false;
      this.index += 1;
    } else if (code === CLOSE_BRACE && this.frames.at(-1)?.kind === 'table') {
      this.close();
    } else {
      this.index = Math.max(start + 1, runEnd(this.text, start, KEY_STOPS));
    }
    return undefined;
  }

  private header(): TooDeep | undefined {
    const { text } = this;
    const start = this.index;
    let index = start + 1;
    let depth = 2;
    if (text.charCodeAt(index) === OPEN_BRACKET) {
      depth += 1;
      index += 1;
    }
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code === CLOSE_BRACKET || code === NEWLINE || code === HASH) break;
      if (code === QUOTE || code === APOSTROPHE) {
        const end = stringEnd(text, index);
        this.report('key', index, end);
        index = end;
      } else {
        if (code === DOT) depth += 1;
        index += 1;
      }
    }
    if (depth > this.maxDepth) return { index: start, depth };
    this.tableDepth = depth;
    this.index = index;
    this.startKey(false);
    return undefined;
  }

  private valueCharacter(code: number): TooDeep | undefined {
    const start = this.index;
    const top = this.frames.at(-1);
    if (code === QUOTE || code === APOSTROPHE) {
      this.index = stringEnd(this.text, start);
      this.report('string', start, this.index);
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
      const depth = this.valueDepth + 1;
      if (depth > this.maxDepth) return { index: start, depth };
      this.frames.push({ kind: code === OPEN_BRACE ? 'table' : 'array', depth });
      this.index += 1;
      if (code === OPEN_BRACE) this.startKey(false);
      else this.valueDepth = depth;
    } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      this.close();
    } else if (code === COMMA) {
      if (top?.kind === 'table') this.startKey(false);
      else if (top) this.valueDepth = top.depth;
      this.index += 1;
    } else {
      const end = runEnd(this.text, start, VALUE_STOPS);
      this.report('bare', start, end);
      this.index = Math.max(start + 1, end);
    }
    return undefined;
  }

  private close(): void {
    this.frames.pop();
    this.expectingKey = false;
    const top = this.frames.at(-1);
    if (top?.kind === 'array') this.valueDepth = top.depth;
    this.index += 1;
  }
}

/**
 * Scan a `.mthds` text: how deep it nests (stopping at the first level past the limit) and which tokens are long.
 * Linear in the text, iterative, and allocation-light; it never throws.
 * @param text - the whole `.mthds` text
 * @param options - the depth limit and the long-token threshold
 * @returns the first level past the limit, if any, and the long tokens
 * @example scanToml('a.b.c = 1', { maxDepth: 2 }).tooDeep // → { index: 0, depth: 3 }
 */
export function scanToml(text: string, options: TomlScanOptions = {}): TomlScan {
  const scanner = new TomlScanner(
    text,
    options.maxDepth ?? MAX_TOML_DEPTH,
    options.longToken ?? Number.POSITIVE_INFINITY,
  );
  const tooDeep = scanner.scan();
  return tooDeep ? { tooDeep, longTokens: scanner.longTokens } : { longTokens: scanner.longTokens };
}
