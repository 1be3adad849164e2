/**
 * Reference strings: concept refs with multiplicity (`Code`, `domain.Code`, `alias->domain.Code`, `X[]`, `X[N]`) and
 * pipe refs, plus the naming rules of codes (docs/bundle-format.md#naming, docs/pipes.md#common-fields,
 * docs/namespaces.md#reference-syntax).
 */

/** How many items: `X` single, `X[]` variable, `X[N]` exactly N. */
export type Multiplicity = 'single' | 'variable' | number;

/**
 * The largest fixed count of items a bundle or a run may ask for: `X[N]`, a step's `nb_output`, a run's
 * `output_multiplicity` (docs/limits.md#multiplicity). A language limit, so that no count a caller writes decides
 * how many items are built before anything checks it (the real bundles of the corpus ask for 5 at most).
 */
export const MAX_MULTIPLICITY = 1000;

/** The parts of a concept reference. */
export interface ConceptRefParts {
  /** Left of `->`: a dependency alias or a package address. */
  packageRef?: string;
  /** Domain path, when qualified. */
  domain?: string;
  code: string;
  multiplicity: Multiplicity;
}

/** A pipe reference's parts. */
export interface PipeRefParts {
  packageRef?: string;
  domain?: string;
  code: string;
}

/** Domain code: snake segments joined by dots (docs/bundle-format.md#naming). */
export const DOMAIN_CODE = /^[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*$/;
/** Concept code: PascalCase. */
export const CONCEPT_CODE = /^[A-Z][A-Za-z0-9]*$/;
/** Pipe code: snake_case. */
export const PIPE_CODE = /^[a-z][a-z0-9_]*$/;
/** Input name: snake_case, or dotted snake_case segments. */
export const INPUT_NAME = /^[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*$/;

const CONCEPT_REF =
  /^(?:(?<pkg>\S+?)->)?(?:(?<dom>[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)\.)?(?<code>[A-Z][A-Za-z0-9]*)(?<mult>\[(?<n>[1-9][0-9]*)?\])?$/;
const PIPE_REF = /^(?:(?<pkg>\S+?)->)?(?:(?<dom>[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)\.)?(?<code>[a-z][a-z0-9_]*)$/;

/**
 * Parse a concept reference.
 * @param ref - e.g. `Text`, `native.Text[]`, `legal.Clause[3]`, `docs->documents.Page`
 * @returns the parts, or undefined when malformed
 * @see docs/pipes.md#common-fields
 */
export function parseConceptRef(ref: string): ConceptRefParts | undefined {
  const groups = CONCEPT_REF.exec(ref.trim())?.groups;
  if (!groups) return undefined;
  const parts: ConceptRefParts = {
    code: groups['code']!,
    multiplicity:
      groups['mult'] === undefined ? 'single' : groups['n'] === undefined ? 'variable' : Number(groups['n']),
  };
  if (groups['pkg'] !== undefined) parts.packageRef = groups['pkg'];
  if (groups['dom'] !== undefined) parts.domain = groups['dom'];
  return parts;
}

/**
 * Parse a pipe reference.
 * @param ref - e.g. `summarize`, `legal.summarize`, `github.com/o/r/pkg->docs.extract`
 * @returns the parts, or undefined when malformed
 * @see docs/namespaces.md#reference-syntax
 */
export function parsePipeRef(ref: string): PipeRefParts | undefined {
  const groups = PIPE_REF.exec(ref.trim())?.groups;
  if (!groups) return undefined;
  const parts: PipeRefParts = { code: groups['code']! };
  if (groups['pkg'] !== undefined) parts.packageRef = groups['pkg'];
  if (groups['dom'] !== undefined) parts.domain = groups['dom'];
  return parts;
}

/**
 * A concept reference without its multiplicity suffix.
 * @param ref - a concept reference
 */
export function stripMultiplicity(ref: string): string {
  return ref.trim().replace(/\[[0-9]*\]$/, '');
}

/**
 * The presence of a pipe slot (docs/language.md#optionality-presence-markers-and-absences): `plain` (`X`: needed;
 * absent → the pipe is lifted), `optional`
 * (`X?`: the pipe runs with it absent) or `force` (`X!`, inputs only: absent → OptionalValueAbsentError).
 */
export type Presence = 'plain' | 'optional' | 'force';

/** A slot spec split into its concept reference (multiplicity kept) and its presence marker. */
export interface PresenceSpec {
  /** The spec without its marker, trimmed, e.g. `Text[]`. */
  ref: string;
  presence: Presence;
  /** The marker as written (`?` or `!`), absent for a plain spec. */
  marker?: '?' | '!';
}

/**
 * Split the trailing presence marker off an input or output spec (`Text?`, `legal.Clause!`, `Page[]?`).
 * @param spec - as written in `inputs`, `output` or an expanded slot's `concept`
 * @see docs/language.md#optionality-presence-markers-and-absences
 */
export function splitPresence(spec: string): PresenceSpec {
  const written = spec.trim();
  const marker = written.at(-1);
  if (marker === '?') return { ref: written.slice(0, -1).trimEnd(), presence: 'optional', marker };
  if (marker === '!') return { ref: written.slice(0, -1).trimEnd(), presence: 'force', marker };
  return { ref: written, presence: 'plain' };
}

/** Special outcomes of a PipeCondition, never resolved as pipes (docs/pipes.md#pipecondition). */
export const SPECIAL_OUTCOMES: ReadonlySet<string> = new Set(['fail', 'continue']);

/**
 * A PascalCase spelling of a code, to suggest in messages (`match_analysis` → `MatchAnalysis`).
 * @param code - any code
 */
export function toPascalCase(code: string): string {
  const words = code.split(/[^A-Za-z0-9]+/).filter((word) => word !== '');
  const pascal = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return /^[A-Z]/.test(pascal) ? pascal : `C${pascal}`;
}

/**
 * A snake_case spelling of a code, to suggest in messages (`SummarizeText` → `summarize_text`).
 * @param code - any code
 */
export function toSnakeCase(code: string): string {
  const snake = code
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return /^[a-z]/.test(snake) ? snake : `p_${snake}`;
}
