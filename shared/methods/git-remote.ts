/**
 * The git commands of a fetch, through simple-git: resolve the commit of a tag (peeled) or of HEAD with
 * `git ls-remote`, then a shallow clone at that tag. Every command runs with restricted transports (only the clone
 * URL's http(s) scheme), no credential prompts or helpers, no redirects, no user or system git configuration, the
 * connection pinned to the checked address when there is one, an overall time bound, and (for a clone) a size bound
 * measured on disk while it downloads. Failures become `MethodFetchError` with a detail that says which step failed and
 * why.
 *
 * @see docs/methods.md#fetching-and-the-clone-cache; docs/methods.md#grammar
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type SimpleGit, simpleGit } from 'simple-git';
import { MethodFetchError } from '../errors/index.js';
import { cloneProtocol } from './clone-target.js';
import { directorySize } from './directory-size.js';
import { GitHostUnavailable } from './host-unavailable.js';

/** How git commands are bounded. */
export interface GitOptions {
  /** Bound of one git command, in ms (`METHOD_GIT_TIMEOUT_MS`). */
  timeoutMs: number;
  /** `host:port:address` pinning git's connection to the address the SSRF check accepted (curl's `--resolve`). */
  resolve?: string | null;
  /** Largest clone, in bytes (the clone cache's total size): a bigger repository is aborted while it downloads. */
  maxCloneBytes?: number;
}

/** How often a running clone's size is measured, in ms. */
const CLONE_SIZE_CHECK_MS = 250;

const GUARDED_ENVIRONMENT = [
  'GIT_TERMINAL_PROMPT',
  'GIT_ALLOW_PROTOCOL',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_GLOBAL',
  'GIT_ASKPASS',
  'GIT_LFS_SKIP_SMUDGE',
];

function git(
  url: string,
  options: GitOptions,
  baseDir?: string,
  extraSignal?: AbortSignal,
): { client: SimpleGit; signal: AbortSignal } {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = extraSignal ? AbortSignal.any([timeout, extraSignal]) : timeout;
  const client = simpleGit({
    ...(baseDir ? { baseDir } : {}),
    abort: signal,
    allowEnvironment: GUARDED_ENVIRONMENT,
    config: [
      'protocol.allow=never',
      `protocol.${cloneProtocol(url)}.allow=always`,
      'http.followRedirects=false',
      'credential.interactive=false',
      'core.askPass=',
      ...(options.resolve ? [`http.curloptResolve=${options.resolve}`] : []),
    ],
    unsafe: { allowUnsafeConfigPaths: true, allowUnsafeAskPass: true, allowUnsafeProtocolOverride: true },
  }).env({
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? '/',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    GIT_ALLOW_PROTOCOL: cloneProtocol(url),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_LFS_SKIP_SMUDGE: '1',
  });
  return { client, signal };
}

/**
 * A failed `git ls-remote` that waiting will not fix: the host answered that the repository does not exist, with a
 * 4xx status, or with a request for credentials; or git is missing here. Any other failure (connection refused or
 * reset, DNS, TLS, a 5xx, a timeout) means the host could not be reached ({@link GitHostUnavailable}).
 */
const FINAL_ANSWER =
  /repository '[^']*' not found|returned error: 4\d\d|could not read (Username|Password)|Authentication failed|git is not installed/i;

function reason(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `timed out after ${timeoutMs} ms`;
  const message = error instanceof Error ? error.message : String(error);
  if (/ENOENT/.test(message) && /spawn/.test(message)) return 'git is not installed on this server';
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.slice(0, 3).join(' / ') || 'unknown git failure';
}

/**
 * Resolve the commit a reference names: the tag's peeled commit, or HEAD.
 * @param url - the clone URL
 * @param tag - the tag, or null for HEAD
 * @param refLabel - the reference as sent, for details
 * @param options - time bound
 * @returns the commit id (lower-case hex)
 * @throws MethodFetchError (422) for an unreachable remote, a timeout, a name that is not a tag, or no HEAD; when the
 *   host could not be reached (no answer, a 5xx, a timeout) its `cause` is a {@link GitHostUnavailable}
 */
export async function resolveCommit(
  url: string,
  tag: string | null,
  refLabel: string,
  options: GitOptions,
): Promise<string> {
  const { client, signal } = git(url, options);
  const refs = tag === null ? ['HEAD'] : [`refs/tags/${tag}`, `refs/tags/${tag}^{}`];
  let output: string;
  try {
    output = await client.listRemote([url, ...refs]);
  } catch (error) {
    const why = reason(error, signal, options.timeoutMs);
    throw new MethodFetchError(
      `Could not reach the repository of method reference '${refLabel}': git ls-remote ${why}.`,
      {
        cause: FINAL_ANSWER.test(why) ? error : new GitHostUnavailable(`git ls-remote ${why}`, error),
      },
    );
  }
  const lines = new Map(
    output
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((fields): fields is [string, string] => fields.length === 2)
      .map(([sha, name]) => [name, sha.toLowerCase()]),
  );
  if (tag === null) {
    const head = lines.get('HEAD');
    if (!head)
      throw new MethodFetchError(
        `The repository of method reference '${refLabel}' has no HEAD (an empty repository, or no default branch).`,
      );
    return head;
  }
  const sha = lines.get(`refs/tags/${tag}^{}`) ?? lines.get(`refs/tags/${tag}`);
  if (!sha) {
    throw new MethodFetchError(
      `'${tag}' in method reference '${refLabel}' does not name a git tag on the repository — \`@<tag>\` pins a git tag (recommended form vX.Y.Z); branch names are not accepted.`,
    );
  }
  return sha;
}

/**
 * Shallow-clone the repository at a tag (or its default branch) into `destination`, then drop `.git`.
 * @param url - the clone URL
 * @param tag - the tag, or null for the default branch
 * @param destination - a directory that does not exist yet (its parent does)
 * @param refLabel - the reference as sent, for details
 * @param options - time bound, address pin, and size bound (measured every 250 ms while git downloads, and once done)
 * @returns the commit id actually cloned
 * @throws MethodFetchError (422) when the clone fails, times out, or grows past the size bound
 */
export async function shallowClone(
  url: string,
  tag: string | null,
  destination: string,
  refLabel: string,
  options: GitOptions,
): Promise<string> {
  const oversize = new AbortController();
  const maxBytes = options.maxCloneBytes;
  const watch =
    maxBytes === undefined
      ? undefined
      : setInterval(() => {
          void directorySize(destination).then((bytes) => {
            if (bytes > maxBytes) oversize.abort();
          });
        }, CLONE_SIZE_CHECK_MS);
  const tooLarge = (cause?: unknown) =>
    new MethodFetchError(
      `The repository of method reference '${refLabel}' is larger than ${Math.round(maxBytes! / 1024)} KiB (MAX_METHOD_CACHE_TOTAL_KIB), the most this server's clone cache holds; the clone was stopped.`,
      cause === undefined ? {} : { cause },
    );
  const cloned = git(url, options, path.dirname(destination), oversize.signal);
  try {
    await cloned.client.clone(url, destination, [
      '--depth',
      '1',
      '--single-branch',
      '--no-tags',
      ...(tag === null ? [] : ['--branch', tag]),
    ]);
    if (maxBytes !== undefined && (await directorySize(destination)) > maxBytes) throw tooLarge();
  } catch (error) {
    if (error instanceof MethodFetchError) throw error;
    if (oversize.signal.aborted) throw tooLarge(error);
    throw new MethodFetchError(
      `Could not clone the repository of method reference '${refLabel}': git clone ${reason(error, cloned.signal, options.timeoutMs)}.`,
      { cause: error },
    );
  } finally {
    clearInterval(watch);
  }
  const inClone = git(url, options, destination);
  let sha: string;
  try {
    sha = (await inClone.client.revparse(['HEAD'])).trim().toLowerCase();
  } catch (error) {
    throw new MethodFetchError(
      `Could not read the commit cloned for method reference '${refLabel}': ${reason(error, inClone.signal, options.timeoutMs)}.`,
      { cause: error },
    );
  }
  await rm(path.join(destination, '.git'), { recursive: true, force: true });
  return sha;
}
