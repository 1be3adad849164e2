import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  type Dockerfile,
  dockerIgnoreMatcher,
  execForm,
  type Instruction,
  parseDockerfile,
  REPO_ROOT,
  repoFile,
  type Stage,
} from '../../helpers/deploy-files.js';

/**
 * Checked without a container runtime: what each stage copies, installs and runs (test/e2e/docker-image.test.ts builds
 * and runs it where Docker is).
 */
describe('deploy/Dockerfile and .dockerignore (static)', () => {
  const dockerfile: Dockerfile = parseDockerfile(repoFile('deploy/Dockerfile'));
  const dockerIgnores = dockerIgnoreMatcher(repoFile('.dockerignore'));
  const runtime = dockerfile.stages.at(-1) as Stage;
  const stageNamed = (name: string) => dockerfile.stages.find((stage) => stage.name === name);
  const all = (stage: Stage, keyword: string): Instruction[] =>
    stage.instructions.filter((instruction) => instruction.keyword === keyword);
  const copySources = (instruction: Instruction) => {
    const words = instruction.args.split(/\s+/).filter((word) => !word.startsWith('--'));
    return words.slice(0, -1);
  };

  it('should build in stages on the Node.js major of package.json engines', () => {
    expect(dockerfile.stages.length).to.be.at.least(3);
    const engines = JSON.parse(repoFile('package.json')).engines.node as string;
    const major = /(\d+)/.exec(engines)?.[1];
    for (const stage of dockerfile.stages) expect(stage.base).to.match(new RegExp(`^node:${major}-[a-z]+-slim$`));
  });

  it('should compile with `npm run build` in a stage the runtime takes only dist/ from', () => {
    const build = stageNamed('build') as Stage;
    expect(all(build, 'RUN').map((run) => run.args)).to.include('npm run build');
    const fromBuild = all(runtime, 'COPY').filter((copy) => copy.args.includes('--from=build'));
    expect(fromBuild.map((copy) => copySources(copy))).to.deep.equal([['/app/dist']]);
    const tsconfig = JSON.parse(repoFile('tsconfig.build.json'));
    expect(tsconfig.compilerOptions.outDir).to.equal('dist');
  });

  it('should ship the production dependencies only', () => {
    const deps = stageNamed('deps') as Stage;
    const installs = all(deps, 'RUN').map((run) => run.args);
    expect(installs.some((args) => /npm ci\b.*--omit=dev/.test(args))).to.equal(true);
    const modules = all(runtime, 'COPY').filter((copy) =>
      copySources(copy).some((source) => source.includes('node_modules')),
    );
    expect(modules.map((copy) => copy.args)).to.deep.equal(['--from=deps /app/node_modules ./node_modules']);
    expect(all(runtime, 'RUN').some((run) => /npm (ci|install)/.test(run.args))).to.equal(false);
  });

  it('should install git (method_ref clones), its CA certificates and tini in the runtime stage', () => {
    const apt = all(runtime, 'RUN').find((run) => run.args.includes('apt-get install')) as Instruction;
    const packages = apt.args.split(/\s+/);
    for (const name of ['git', 'ca-certificates', 'tini']) expect(packages, name).to.include(name);
    expect(apt.args).to.include('--no-install-recommends');
    expect(apt.args).to.include('rm -rf /var/lib/apt/lists/*');
    expect(execForm(all(runtime, 'ENTRYPOINT').at(-1))).to.deep.equal(['/usr/bin/tini', '--']);
  });

  it('should run as a user that is not root', () => {
    const user = all(runtime, 'USER').at(-1)?.args;
    expect(user).to.be.a('string');
    expect(user).to.not.match(/^(root|0)(:|$)/);
    const last = runtime.instructions.findLastIndex((instruction) => instruction.keyword === 'USER');
    expect(runtime.instructions.slice(last).some((instruction) => instruction.keyword === 'RUN')).to.equal(false);
  });

  it('should start the compiled API entry by default, whose source exists, as the worker entry does', () => {
    const command = execForm(all(runtime, 'CMD').at(-1));
    expect(command).to.deep.equal(['node', 'dist/api/server.js']);
    expect(existsSync(join(REPO_ROOT, 'api/server.ts'))).to.equal(true);
    expect(existsSync(join(REPO_ROOT, 'worker/main.ts'))).to.equal(true);
    const env = all(runtime, 'ENV')
      .map((instruction) => instruction.args)
      .join(' ');
    expect(env).to.match(/\bPORT=8081\b/);
    expect(env).to.match(/\bNODE_ENV=production\b/);
    expect(all(runtime, 'EXPOSE').map((instruction) => instruction.args)).to.deep.equal(['8081']);
  });

  it('should copy from the context only paths that exist and that .dockerignore lets in, folders with every tracked file', () => {
    const copies = dockerfile.stages.flatMap((stage) =>
      all(stage, 'COPY').filter((copy) => !copy.args.includes('--from=')),
    );
    expect(copies.length).to.be.greaterThan(5);
    for (const copy of copies) {
      for (const source of copySources(copy)) {
        const path = join(REPO_ROOT, source);
        expect(existsSync(path), source).to.equal(true);
        if (!statSync(path).isDirectory()) {
          expect(dockerIgnores(source), `${source} is left out of the context`).to.equal(false);
        } else {
          // A folder is copied with what the rules let in under it: every file git tracks there.
          const tracked = execFileSync('git', ['ls-files', source], { cwd: REPO_ROOT, encoding: 'utf8' })
            .split('\n')
            .filter((file) => file !== '');
          expect(tracked, source).to.not.be.empty;
          for (const file of tracked) expect(dockerIgnores(file), file).to.equal(false);
        }
      }
    }
  });

  it('should copy every file the production build reads (scripts/build.mjs)', () => {
    const build = stageNamed('build') as Stage;
    const copied = all(build, 'COPY').flatMap((copy) => copySources(copy));
    const script = repoFile('scripts/build.mjs');
    const lists = [/SOURCE_DIRS = \[([^\]]*)\]/, /RUNTIME_FILES = \[([^\]]*)\]/].map(
      (pattern) => pattern.exec(script)?.[1] ?? '',
    );
    const needed = lists.flatMap((list) => [...list.matchAll(/'([^']+)'/g)].map((match) => match[1] as string));
    expect(needed).to.include.members(['api', 'worker', 'shared', 'package.json', 'docs/errors.md']);
    for (const path of [...needed, 'tsconfig.json', 'tsconfig.build.json', 'scripts']) {
      expect(copied, path).to.include(path);
    }
  });

  it('should keep dependencies, build output, tests, secrets and local overrides out of the context', () => {
    for (const path of [
      'node_modules/express/package.json',
      'dist/api/server.js',
      '.git/HEAD',
      'test/unit/deploy/dockerfile.test.ts',
      'bench/memory.ts',
      'deploy/.env',
      'config/api_override.toml',
      'config/api_production.toml',
      'config/inference/backends.toml',
      'coverage/index.html',
    ]) {
      expect(dockerIgnores(path), path).to.equal(true);
    }
    expect(dockerIgnores('config/README.md')).to.equal(false);
  });
});

describe('the production dependencies the image installs', () => {
  const manifest = JSON.parse(repoFile('package.json')) as { dependencies: Record<string, string> };

  /** Every `.ts` file of a source folder. */
  function sources(folder: string): string[] {
    return readdirSync(join(REPO_ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return sources(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    });
  }

  it('should hold every package the compiled code imports (npm ci --omit=dev leaves the others out)', () => {
    const imported = new Map<string, string>();
    for (const file of ['api', 'worker', 'shared'].flatMap(sources)) {
      const text = repoFile(file);
      const specifiers = [
        ...text.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?\sfrom\s+'([^']+)'/gms),
        ...text.matchAll(/^\s*import\s+'([^']+)'/gm),
        ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
      ].map((match) => match[1] as string);
      for (const specifier of specifiers) {
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const parts = specifier.split('/');
        imported.set(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string), file);
      }
    }
    expect(imported.size).to.be.greaterThan(10);
    for (const [name, file] of imported)
      expect(manifest.dependencies, `${name} (imported by ${file})`).to.have.property(name);
  });
});
