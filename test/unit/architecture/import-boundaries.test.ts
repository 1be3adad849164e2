import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

const ANY_IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm;
/** Imports that bring values (code that runs), not `import type` / `export type`. */
const VALUE_IMPORT = /^\s*(?:import|export)\s(?!type\s)[^'"]*?from\s+'([^']+)'/gm;

function importsOf(file: string, pattern = ANY_IMPORT): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

function violations(folder: string, forbidden: (specifier: string) => boolean, pattern = ANY_IMPORT): string[] {
  return sourceFiles(folder).flatMap((file) =>
    importsOf(file, pattern)
      .filter(forbidden)
      .map((specifier) => `${file} imports ${specifier}`),
  );
}

describe('import boundaries (CONTRIBUTING.md#1-layers-point-down)', () => {
  it('should keep shared/ free of api/ and worker/ imports', () => {
    expect(
      violations('shared', (specifier) => /(^|\/)(api|worker)\//.test(specifier) && specifier.startsWith('..')),
    ).to.deep.equal([]);
  });

  it('should keep the language core and runtime free of HTTP, queue and provider libraries', () => {
    const infrastructure = /^(express|bullmq|ioredis|openai|undici|got|supertest)(\/|$)/;
    expect([
      ...violations('shared/mthds', (specifier) => infrastructure.test(specifier)),
      ...violations('shared/runtime', (specifier) => infrastructure.test(specifier)),
    ]).to.deep.equal([]);
  });

  it('should keep the runtime independent of the inference adapters (injected through a port)', () => {
    expect(violations('shared/runtime', (specifier) => specifier.includes('/inference/'))).to.deep.equal([]);
  });

  it('should keep shared/net (the outbound guard) free of every layer above it: only shared/errors and shared/config', () => {
    expect(
      violations(
        'shared/net',
        (specifier) => specifier.startsWith('..') && !/^\.\.\/(errors|config)\//.test(specifier),
      ),
    ).to.deep.equal([]);
  });

  it('should send HTTP only through shared/net (the providers use their SDKs or the global fetch, to operator-configured endpoints)', () => {
    const http = (specifier: string) => /^(undici|got|node:http|node:https|http|https)$/.test(specifier);
    // api/http-server.ts builds the inbound server (node:http createServer), which sends no request.
    const outside = [...violations('shared', http, VALUE_IMPORT), ...violations('api', http, VALUE_IMPORT)].filter(
      (line) => !line.startsWith('shared/net/') && line !== 'api/http-server.ts imports node:http',
    );
    expect(outside).to.deep.equal([]);
  });

  it('should keep async contexts (node:async_hooks) out of the service: on Node 20 one slows every promise of the process', () => {
    const hooked = ['api', 'shared', 'worker'].flatMap((folder) =>
      violations(folder, (specifier) => specifier === 'node:async_hooks' || specifier === 'async_hooks'),
    );
    expect(hooked).to.deep.equal([]);
  });
});
