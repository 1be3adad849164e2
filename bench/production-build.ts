/**
 * The production build the benchmarks measure (`npm start` runs it): `dist/`, refreshed when a source is newer
 * (`scripts/build.mjs --if-stale`).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Build `dist/` unless it is up to date; the build's output goes to this process's terminal.
 * @throws Error when the build fails
 */
export function ensureProductionBuild(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
}
