/**
 * The codegen stamp (docs/codegen.md#stamp-and-lock; spec §4.7 rule 3): a comment block prepended to every artifact
 * recording
 * the crate fingerprint, the engine version, the projection, the options and the SHA-256 of the body below it, so a
 * lone file can testify about itself and a hand edit under the stamp is detectable offline.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

const BEGIN = '>>> pipelex-codegen-stamp >>>';
const END = '<<< pipelex-codegen-stamp <<<';

/** What a stamp records besides the body hash. */
export interface StampFacts {
  crateFingerprint: string;
  engineVersion: string;
  /** `types / <target>`, or `<kind> / <target> / <pipe_ref>` for a per-pipe projection. */
  projection: string;
  /** Output-affecting options (string → string); serialised as canonical JSON (RFC 8785: compact, keys sorted). */
  options: Readonly<Record<string, string>>;
}

/**
 * The content hash of a body: lowercase SHA-256 hex over its UTF-8 bytes.
 * @param body - the artifact text below the stamp
 */
export function contentHash(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex');
}

/**
 * The comment prefix of an artifact path: `#` for `.py`, `//` for `.ts`.
 * @param path - the artifact path
 * @throws Error for another suffix (the emitters only write `.py` and `.ts`)
 */
function commentPrefix(path: string): string {
  if (path.endsWith('.py')) return '#';
  if (path.endsWith('.ts')) return '//';
  throw new Error(`Cannot stamp '${path}': no known comment syntax for its file type (expected .py or .ts).`);
}

/**
 * Prepend the stamp block to a body.
 * @param path - the artifact path (chooses the comment prefix)
 * @param body - the generated text
 * @param facts - fingerprint, engine version, projection and options
 * @returns the stamped text: the seven stamp lines, then the body verbatim
 */
export function applyStamp(path: string, body: string, facts: StampFacts): string {
  const prefix = commentPrefix(path);
  const lines = [
    BEGIN,
    `crate_fingerprint: ${facts.crateFingerprint}`,
    `engine_version: ${facts.engineVersion}`,
    `projection: ${facts.projection}`,
    `options: ${canonicalize(facts.options)}`,
    `content_hash: ${contentHash(body)}`,
    END,
  ];
  return `${lines.map((line) => `${prefix} ${line}`).join('\n')}\n${body}`;
}
