/**
 * Readers of the deployment recipes in `deploy/` for the tests that check them without a container runtime: the
 * Dockerfile's stages and instructions, `.dockerignore` with Docker's matching rules, and `kubectl kustomize` output.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Minimatch } from 'minimatch';
import YAML from 'yaml';

/** The repository root (the Docker build context). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** One Dockerfile instruction: its keyword (upper case) and its arguments, continuation lines joined. */
export interface Instruction {
  keyword: string;
  args: string;
}

/** One build stage: its base image, its `AS` name, its instructions after `FROM`. */
export interface Stage {
  base: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** A parsed Dockerfile: the `ARG`s before the first `FROM` (with defaults), then its stages. */
export interface Dockerfile {
  globalArgs: Map<string, string>;
  stages: Stage[];
}

/**
 * Parse a Dockerfile (comments, parser directives and blank lines dropped; `\` continuations joined).
 * @param text - the Dockerfile's text
 */
export function parseDockerfile(text: string): Dockerfile {
  const logical: string[] = [];
  let pending = '';
  for (const line of text.split('\n')) {
    if (pending === '' && /^\s*(#|$)/.test(line)) continue;
    if (/\\\s*$/.test(line)) pending += `${line.replace(/\\\s*$/, '')} `;
    else {
      logical.push((pending + line).trim());
      pending = '';
    }
  }
  const globalArgs = new Map<string, string>();
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const upper = keyword.toUpperCase();
    if (upper === 'FROM') {
      const [base = '', , name] = args.split(/\s+/);
      const resolved = base.replace(/\$\{(\w+)\}/g, (_whole, arg: string) => globalArgs.get(arg) ?? '');
      stages.push({ base: resolved, name, instructions: [] });
    } else if (stages.length === 0 && upper === 'ARG') {
      const [argName = '', value = ''] = args.split('=');
      globalArgs.set(argName, value);
    } else stages.at(-1)?.instructions.push({ keyword: upper, args });
  }
  return { globalArgs, stages };
}

/** The arguments of a JSON-form (exec form) instruction such as `CMD ["node", "x.js"]`. */
export function execForm(instruction: Instruction | undefined): string[] {
  if (!instruction) return [];
  const parsed: unknown = JSON.parse(instruction.args);
  return Array.isArray(parsed) ? parsed.map(String) : [];
}

/**
 * A `.dockerignore` matcher with Docker's rules: the last pattern that matches a path or one of its parent folders
 * decides whether the path is left out of the build context, `!` patterns re-including.
 * @param rules - the `.dockerignore` text
 * @returns whether Docker leaves a path (relative to the context root, `/`-separated) out
 */
export function dockerIgnoreMatcher(rules: string): (path: string) => boolean {
  const patterns = rules
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((raw) => ({
      exclude: !raw.startsWith('!'),
      matcher: new Minimatch(raw.replace(/^!/, '').replace(/^\//, '').replace(/\/$/, ''), { dot: true }),
    }));
  return (path) => {
    const segments = path.split('/');
    const candidates = segments.map((_segment, index) => segments.slice(0, index + 1).join('/'));
    let ignored = false;
    for (const { exclude, matcher } of patterns) {
      if (candidates.some((candidate) => matcher.match(candidate))) ignored = exclude;
    }
    return ignored;
  };
}

/** A Kubernetes object as rendered. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** Whether `kubectl` is on the PATH. */
export function hasKubectl(): boolean {
  return spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
}

/**
 * Render a kustomization offline (`kubectl kustomize <dir>`).
 * @param directory - the kustomization folder, relative to the repository root
 * @returns every object of the output
 * @throws Error with kubectl's stderr when rendering fails
 */
export function kustomize(directory: string): K8sObject[] {
  const result = spawnSync('kubectl', ['kustomize', directory], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`kubectl kustomize ${directory} failed: ${result.stderr}`);
  return YAML.parseAllDocuments(result.stdout).map((document) => document.toJS() as K8sObject);
}

/** Read a file of the repository as text. */
export function repoFile(path: string): string {
  return readFileSync(new URL(path, `file://${REPO_ROOT}`), 'utf8');
}
