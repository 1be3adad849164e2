/**
 * Real git repositories for tests: a working repository in a temp dir that commits, tags and pushes into a bare
 * repository laid out `<serverRoot>/<owner>/<repo>.git` (what {@link startGitServer} serves).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

function run(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();
}

/** A working repository that publishes to a served bare repository. */
export class TestRepo {
  readonly workDir: string;
  readonly bareDir: string;

  /**
   * @param serverRoot - the git server's root
   * @param owner - first path segment
   * @param repo - repository name (without `.git`)
   */
  constructor(serverRoot: string, owner: string, repo: string) {
    this.workDir = mkdtempSync(path.join(os.tmpdir(), 'mthds-work-'));
    this.bareDir = path.join(serverRoot, owner, `${repo}.git`);
    mkdirSync(this.bareDir, { recursive: true });
    run(this.bareDir, 'init', '--bare', '--quiet', '--initial-branch=main');
    run(this.workDir, 'init', '--quiet', '--initial-branch=main');
  }

  /** Write files (path → text or bytes) relative to the repository root. */
  write(files: Record<string, string | Buffer>): this {
    for (const [relative, content] of Object.entries(files)) {
      const target = path.join(this.workDir, relative);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, content);
    }
    return this;
  }

  /** Copy a directory into the repository at `relative`. */
  copy(source: string, relative: string): this {
    cpSync(source, path.join(this.workDir, relative), { recursive: true });
    return this;
  }

  /**
   * Commit everything, push the branch, and optionally tag (annotated) and push the tag; an existing tag of that name
   * is moved to the new commit (force-pushed).
   * @returns the commit id
   */
  commit(message: string, tag?: string): string {
    run(this.workDir, 'add', '--all');
    run(this.workDir, 'commit', '--quiet', '--allow-empty', '-m', message);
    if (tag) run(this.workDir, 'tag', '--force', '-a', tag, '-m', tag);
    run(this.workDir, 'push', '--quiet', '--force', this.bareDir, 'main', ...(tag ? [`refs/tags/${tag}`] : []));
    return run(this.workDir, 'rev-parse', 'HEAD');
  }

  /** Create and push a branch at HEAD. */
  branch(name: string): void {
    run(this.workDir, 'push', '--quiet', this.bareDir, `HEAD:refs/heads/${name}`);
  }

  /** Remove the working directory (the bare repository lives under the server root). */
  dispose(): void {
    rmSync(this.workDir, { recursive: true, force: true });
  }
}
