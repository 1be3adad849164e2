/**
 * The `method_ref` grammar: `{repo_host}/<owner>/<repo>[/<selector>][@<tag>]` (spec §2.2; docs/methods.md#grammar;
 * docs/methods.md#grammar). A reference without a host segment (registry form) is reserved: 501
 * `MethodRefNotSupported`.
 * A reference that looks like an address but is malformed, or names a host the deployment does not fetch from, is
 * 422 `MethodRefParseError`.
 */
import { MethodRefNotSupported, MethodRefParseError } from '../errors/index.js';

/** A parsed address-form reference. Host is lower case; owner, repo and selector keep the case as written. */
export interface MethodRef {
  /** The reference as sent, trimmed. */
  raw: string;
  host: string;
  owner: string;
  repo: string;
  /** Everything after `owner/repo` (a package name or path), or null. */
  selector: string | null;
  /** The git tag after `@`, or null for the default branch at HEAD. */
  tag: string | null;
  /** The full package address `host/owner/repo[/selector]` (what manifests are matched against). */
  address: string;
}

const SEGMENT = /^[A-Za-z0-9._-]+$/;
const TAG = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
const SCHEME = /^https?:\/\//i;

function tagProblem(tag: string): string | undefined {
  if (!TAG.test(tag)) return 'must start with a letter or digit and use only letters, digits, ".", "_", "/" and "-"';
  if (
    tag.includes('..') ||
    tag.includes('//') ||
    tag.endsWith('/') ||
    tag.endsWith('.') ||
    tag.endsWith('.lock') ||
    tag.split('/').some((part) => part.startsWith('.'))
  ) {
    return 'is not a valid git tag name';
  }
  return undefined;
}

/**
 * Parse a `method_ref`.
 * @param input - the request's `method_ref` (1–512 characters, checked by the request schema)
 * @param allowedHosts - `METHOD_REF_ALLOWED_HOSTS`, lower case
 * @returns the parsed reference
 * @throws MethodRefNotSupported (501) for a registry form (no `host.tld/` first segment)
 * @throws MethodRefParseError (422) for an empty, malformed or not-allowed-host reference; the detail says which
 * @see spec §2.2; docs/methods.md#grammar
 * @example parseMethodRef('github.com/pipelex/methods/cv_analyzer@v0.1.0', ['github.com']).tag === 'v0.1.0'
 */
export function parseMethodRef(input: string, allowedHosts: readonly string[]): MethodRef {
  const raw = input.trim();
  if (raw === '')
    throw new MethodRefParseError('Empty method reference: send `{host}/<owner>/<repo>[/<package>][@<tag>]`.');
  const hadScheme = SCHEME.test(raw);
  const withoutScheme = raw.replace(SCHEME, '');
  const at = withoutScheme.lastIndexOf('@');
  const addressPart = at === -1 ? withoutScheme : withoutScheme.slice(0, at);
  const tag = at === -1 ? null : withoutScheme.slice(at + 1);
  const firstSegment = addressPart.split('/')[0] ?? '';
  if (!hadScheme && !firstSegment.includes('.')) {
    throw new MethodRefNotSupported(
      `Method reference '${raw}' is a registry-form reference, which this deployment does not serve: send an address of the form '{host}/<owner>/<repo>[/<package>][@<tag>]'.`,
    );
  }
  if (tag !== null) {
    const problem = tagProblem(tag);
    if (problem) throw new MethodRefParseError(`Invalid tag '${tag}' in method reference '${raw}': it ${problem}.`);
  }
  const trimmed = addressPart.replace(/\/+$/, '').replace(/\.git$/i, '');
  const parts = trimmed.split('/');
  const host = (parts[0] ?? '').toLowerCase();
  if (!allowedHosts.includes(host)) {
    throw new MethodRefParseError(
      `Unsupported method address '${raw}': only ${allowedHosts.map((allowed) => `'${allowed}/...'`).join(', ')} addresses are supported.`,
    );
  }
  if ((parts[3] === 'tree' || parts[3] === 'blob') && parts.length >= 5) parts.splice(3, 2);
  if (parts.length < 3)
    throw new MethodRefParseError(`Method reference '${raw}' needs at least '{host}/<owner>/<repo>'.`);
  const bad = parts.slice(1).find((segment) => !SEGMENT.test(segment) || segment === '.' || segment === '..');
  if (bad !== undefined) {
    throw new MethodRefParseError(
      `Method reference '${raw}' has an invalid path segment '${bad}': each segment after the host uses only letters, digits, '.', '_' and '-'.`,
    );
  }
  const [owner, repo, ...rest] = parts.slice(1) as [string, string, ...string[]];
  const selector = rest.length > 0 ? rest.join('/') : null;
  const repository = `${host}/${owner}/${repo}`;
  return {
    raw,
    host,
    owner,
    repo,
    selector,
    tag,
    address: selector === null ? repository : `${repository}/${selector}`,
  };
}
