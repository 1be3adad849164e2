/**
 * `method_ref` cache hits (`npm run bench`; docs/methods.md): `/v1/execute` of a method fetched by address, once its
 * clone is cached, against the same bundle sent inline (the anchor), both on the API in this process (direct mode,
 * mock inference). The method is served by a git smart-HTTP server on 127.0.0.1 (`test/helpers/git-server.ts`) that
 * counts every contact: within `METHOD_REF_RESOLVE_TTL_SECONDS` a hit must not contact it at all. Interleaved
 * `BENCH_ROUNDS` rounds (default 3) of `BENCH_SECONDS` (default 3) with `BENCH_CONNECTIONS` (default 10) connections.
 * Target (issue 13): a hit costs ≤ 1.2 × the inline request, i.e. a ratio ≥ 0.83. Writes `bench/method-ref.md`.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../test/helpers/git-repos.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { tempDir } from '../test/helpers/method-repos.js';
import { comparisonRow, interleave, requestRate } from './comparison.js';
import { postJson, startDirectService } from './service-client.js';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 3);
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10);

const BUNDLE = `domain = "welcome"
description = "Welcome a guest"
main_pipe = "welcome_guest"

[pipe.welcome_guest]
type = "PipeLLM"
description = "Welcome a guest by name"
inputs = { guest = "Text" }
output = "Text"
prompt = "Write one line welcoming $guest."
`;
const MANIFEST = `[package]
name = "welcome"
address = "github.com/bench/welcome"
version = "1.0.0"
description = "Welcome a guest"
main_pipe = "welcome_guest"
`;

async function main(): Promise<void> {
  const root = tempDir('mthds-bench-git-');
  const cacheDir = tempDir('mthds-bench-methods-');
  const server = await startGitServer(root);
  const repo = new TestRepo(root, 'bench', 'welcome');
  repo.write({ 'METHODS.toml': MANIFEST, 'welcome.mthds': BUNDLE }).commit('welcome', 'v1.0.0');
  const service = await startDirectService({
    METHOD_REF_CLONE_URL_TEMPLATE: server.template,
    METHOD_REF_ALLOW_PRIVATE_HOSTS: 'true',
    METHOD_CACHE_DIR: cacheDir,
  });
  try {
    const inputs = { guest: 'Ada' };
    const viaRef = { method_ref: 'github.com/bench/welcome@v1.0.0', inputs };
    const inline = { mthds_contents: [BUNDLE], inputs };
    await postJson(`${service.url}/v1/execute`, viaRef);
    await postJson(`${service.url}/v1/execute`, inline);
    const contactsBefore = server.contactCount();
    const load = (body: unknown) => ({
      url: `${service.url}/v1/execute`,
      method: 'POST' as const,
      body,
      seconds: SECONDS,
      connections: CONNECTIONS,
    });
    const pairs = await interleave(ROUNDS, (side) => requestRate(load(side === 'anchor' ? inline : viaRef)));
    const contacts = server.contactCount() - contactsBefore;
    const comparison = {
      name: '/v1/execute by method_ref (cached clone) vs the same bundle inline',
      unit: 'req/s',
      target: '≥ 0.83 (hit ≤ 1.2 × inline)',
      pairs,
    };
    const report = [
      `# method_ref cache hits (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
      '',
      `Median over ${ROUNDS} interleaved rounds of ${SECONDS} s with ${CONNECTIONS} connections; ratio = method_ref / inline`,
      '(higher is better), spread min–max.',
      '',
      '| scenario | service | anchor | ratio (spread) | target |',
      '|---|---|---|---|---|',
      comparisonRow(comparison),
      '',
      `Contacts with the git server during the measured requests (ref advertisements and clones): ${contacts}.`,
      '',
    ].join('\n');
    writeFileSync(join(import.meta.dirname, 'method-ref.md'), report);
    process.stdout.write(report);
  } finally {
    await service.close();
    await server.close();
    repo.dispose();
    rmSync(root, { recursive: true, force: true });
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

await main();
