/**
 * The method repositories of the `method_ref` tests, served over git smart HTTP on 127.0.0.1:
 * - `pipelex/methods`: the published multi-package repository (`../shared/corpus/methods`), tagged `v0.1.0`, then
 *   `v0.2.0` (report_writer's version and domain description changed); HEAD is `v0.2.0`; branch `develop`;
 * - `acme/pytools`: a package shipping a plain `.py`; `acme/structs`: a package declaring a structure class;
 * - `acme/big`: packages over the file-count (`many`) and size (`heavy`) ceilings of {@link METHOD_TEST_ENV};
 * - `acme/twins`: two manifests with one identity; `acme/crowd`: more manifests than the scan limit;
 * - `acme/empty`: no manifest at all;
 * - `acme/consumer`: a package whose `[dependencies]` names the documents package of `pipelex/methods` at `v0.1.0`;
 * - `acme/outsider`: a package calling the documents package of `pipelex/methods` by address, with no `[dependencies]`;
 * - `acme/ping` and `acme/pong`: two packages calling each other by address (a cycle);
 * - `acme/gated`: a package whose `[exports.gated]` lists `greet_publicly` only (not `greet_privately`);
 *   `acme/caller`: a package calling both by address (`call_public` is its main pipe, `call_private` another);
 * - `acme/reader`: a package extracting a PDF it ships (`docs/contract.pdf`), plus a `requirements.txt`;
 * - `acme/twomains`: a package whose manifest `main_pipe` (`shout`) is not its bundle's (`say_hello`);
 * - `acme/bulky`: a repository holding 4 MiB of incompressible bytes beside a small package (`pkg/`).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestRepo } from './git-repos.js';
import { type GitServer, startGitServer } from './git-server.js';

const CORPUS_METHODS = fileURLToPath(new URL('../../../shared/corpus/methods/', import.meta.url));

/** Limits the fixtures are built against (settings of the app under test). */
const METHOD_TEST_ENV = {
  SERVICE_MAX_FETCHED_PACKAGE_FILES: '40',
  SERVICE_MAX_FETCHED_PACKAGE_TOTAL_KIB: '512',
  SERVICE_MAX_SCANNED_MANIFESTS: '8',
};

/** The served fixtures. */
export interface MethodRepos {
  server: GitServer;
  /** Commit ids of `pipelex/methods`. */
  commits: { v010: string; v020: string };
  /** A fresh tag on `pipelex/methods` nobody fetched yet, for cold-cache tests. */
  freshTag(name: string): string;
  /** App settings mapping every host to the server, with a fresh cache dir. */
  environment(cacheDir: string): Record<string, string>;
  close(): Promise<void>;
}

function manifest(name: string, address: string, extra = ''): string {
  return `[package]\nname = "${name}"\naddress = "${address}"\nversion = "1.0.0"\ndescription = "${name}"\nmain_pipe = "say_hello"\n${extra}`;
}

const HELLO = `domain = "greeting"\ndescription = "Hello"\nmain_pipe = "say_hello"\n\n[pipe.say_hello]\ntype = "PipeLLM"\ndescription = "Say hello"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Say hello to @name"\n`;

const CONSUMER = `domain = "consumer"\ndescription = "Reads pages through a dependency"\nmain_pipe = "read_pages"\n\n[pipe.read_pages]\ntype = "PipeSequence"\ndescription = "Read pages"\ninputs = { document = "Document" }\noutput = "Page[]"\nsteps = [\n  { pipe = "docs->documents.extract_text_pages", result = "pages" },\n]\n`;

const GATED = `domain = "gated"\nmain_pipe = "greet_publicly"\n\n[pipe.greet_publicly]\ntype = "PipeLLM"\ndescription = "Greet in public"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Greet @name in public"\n\n[pipe.greet_privately]\ntype = "PipeLLM"\ndescription = "Greet in private"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Greet @name in private"\n`;

const CALLER = `domain = "caller"\nmain_pipe = "call_public"\n\n[pipe.call_public]\ntype = "PipeSequence"\ndescription = "Call the exported pipe"\ninputs = { name = "Text" }\noutput = "Text"\nsteps = [{ pipe = "github.com/acme/gated/gated->gated.greet_publicly", result = "answer" }]\n\n[pipe.call_private]\ntype = "PipeSequence"\ndescription = "Call a pipe the package does not export"\ninputs = { name = "Text" }\noutput = "Text"\nsteps = [{ pipe = "github.com/acme/gated/gated->gated.greet_privately", result = "answer" }]\n`;

/** A fresh temp dir. */
export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Build and serve every fixture repository. */
export async function startMethodRepos(): Promise<MethodRepos> {
  const root = tempDir('mthds-git-');
  const server = await startGitServer(root);
  const repos: TestRepo[] = [];
  const repo = (owner: string, name: string) => {
    const created = new TestRepo(root, owner, name);
    repos.push(created);
    return created;
  };

  const methods = repo('pipelex', 'methods');
  for (const name of [
    'cv_analyzer',
    'doc_summarizer',
    'documents',
    'report_writer',
    'entity_extractor',
    'key_fact_extractor',
    'compliance_checker',
  ]) {
    methods.copy(path.join(CORPUS_METHODS, name), name);
  }
  const v010 = methods.commit('methods as published', 'v0.1.0');
  const reportManifest = path.join(methods.workDir, 'report_writer', 'METHODS.toml');
  const reportBundle = path.join(methods.workDir, 'report_writer', 'bundle.mthds');
  methods.write({
    'report_writer/METHODS.toml': readFileSync(reportManifest, 'utf8').replace(
      'version = "0.1.3"',
      'version = "0.2.0"',
    ),
    'report_writer/bundle.mthds': readFileSync(reportBundle, 'utf8').replace(
      'then compose the final report using templating."',
      'then compose the final report using templating (v0.2)."',
    ),
  });
  const v020 = methods.commit('report_writer 0.2.0', 'v0.2.0');
  methods.branch('develop');

  repo('acme', 'pytools')
    .write({
      'METHODS.toml': manifest('pytools', 'github.com/acme/pytools'),
      'hello.mthds': HELLO,
      'helpers.py': 'def shout(text):\n    return text.upper()\n',
    })
    .commit('py', 'v1.0.0');
  repo('acme', 'structs')
    .write({
      'METHODS.toml': manifest('structs', 'github.com/acme/structs'),
      'hello.mthds': HELLO,
      'structures/invoice.py':
        'from pipelex.core.stuffs.structured_content import StructuredContent\n\n# class Fake(StructuredContent): a comment\nclass Invoice(StructuredContent):\n    amount: float\n',
    })
    .commit('structs', 'v1.0.0');
  const many: Record<string, string> = {
    'many/METHODS.toml': manifest('many', 'github.com/acme/big'),
    'many/hello.mthds': HELLO,
  };
  for (let index = 0; index < 45; index += 1) many[`many/notes/note-${index}.md`] = `note ${index}\n`;
  repo('acme', 'big')
    .write({
      ...many,
      'heavy/METHODS.toml': manifest('heavy', 'github.com/acme/big'),
      'heavy/hello.mthds': HELLO,
      'heavy/data.txt': 'x'.repeat(600 * 1024),
    })
    .commit('big', 'v1.0.0');
  repo('acme', 'bulky')
    .write({
      'pkg/METHODS.toml': manifest('bulky', 'github.com/acme/bulky'),
      'pkg/hello.mthds': HELLO,
      'assets/noise.bin': randomBytes(4 * 1024 * 1024),
    })
    .commit('bulky', 'v1.0.0');
  repo('acme', 'reader')
    .write({
      'METHODS.toml': manifest('reader', 'github.com/acme/reader').replace(
        'main_pipe = "say_hello"',
        'main_pipe = "read"',
      ),
      'reader.mthds':
        'domain = "reader"\nmain_pipe = "read"\n\n[pipe.read]\ntype = "PipeExtract"\ndescription = "Read a document"\ninputs = { document = "Document" }\noutput = "Page[]"\n',
      'docs/contract.pdf': readFileSync(
        path.join(CORPUS_METHODS, '_sample-inputs/doc-summarizer/inputs/synthetic_contract.pdf'),
      ),
      'requirements.txt': 'pydantic\n',
    })
    .commit('reader', 'v1.0.0');
  repo('acme', 'twomains')
    .write({
      'METHODS.toml': manifest('twomains', 'github.com/acme/twomains').replace(
        'main_pipe = "say_hello"',
        'main_pipe = "shout"',
      ),
      'hello.mthds': `${HELLO}\n[pipe.shout]\ntype = "PipeLLM"\ndescription = "Shout hello"\ninputs = { name = "Text" }\noutput = "Text"\nprompt = "Shout hello to @name"\n`,
    })
    .commit('twomains', 'v1.0.0');
  repo('acme', 'twins')
    .write({
      'a/METHODS.toml': manifest('twin', 'github.com/acme/twins'),
      'a/hello.mthds': HELLO,
      'b/METHODS.toml': manifest('twin', 'github.com/acme/twins'),
      'b/hello.mthds': HELLO,
    })
    .commit('twins', 'v1.0.0');
  const crowd: Record<string, string> = {};
  for (let index = 0; index < 9; index += 1)
    crowd[`p${index}/METHODS.toml`] = manifest(`p${index}x`, 'github.com/acme/crowd');
  repo('acme', 'crowd').write(crowd).commit('crowd', 'v1.0.0');
  repo('acme', 'empty').write({ 'README.md': 'nothing here\n' }).commit('empty', 'v1.0.0');
  repo('acme', 'consumer')
    .write({
      'METHODS.toml': manifest(
        'consumer',
        'github.com/acme/consumer',
        '\n[dependencies]\ndocs = { address = "github.com/pipelex/methods/documents", version = "v0.1.0" }\n',
      ).replace('main_pipe = "say_hello"', 'main_pipe = "read_pages"'),
      'consumer.mthds': CONSUMER,
    })
    .commit('consumer', 'v1.0.0');

  repo('acme', 'outsider')
    .write({
      'METHODS.toml': manifest('outsider', 'github.com/acme/outsider').replace(
        'main_pipe = "say_hello"',
        'main_pipe = "read_pages"',
      ),
      'outsider.mthds': CONSUMER.replace('domain = "consumer"', 'domain = "outsider"').replace(
        'docs->documents',
        'github.com/pipelex/methods/documents->documents',
      ),
    })
    .commit('outsider', 'v1.0.0');
  for (const [self, other] of [
    ['ping', 'pong'],
    ['pong', 'ping'],
  ] as const) {
    repo('acme', self)
      .write({
        'METHODS.toml': manifest(self, `github.com/acme/${self}`).replace(
          'main_pipe = "say_hello"',
          `main_pipe = "call_${other}"`,
        ),
        [`${self}.mthds`]: `domain = "${self}"\nmain_pipe = "call_${other}"\n\n[pipe.call_${other}]\ntype = "PipeSequence"\ndescription = "Call ${other}"\ninputs = { name = "Text" }\noutput = "Text"\nsteps = [{ pipe = "github.com/acme/${other}/${other}->${other}.call_${self}", result = "answer" }]\n`,
      })
      .commit(self, 'v1.0.0');
  }

  repo('acme', 'gated')
    .write({
      'METHODS.toml': manifest(
        'gated',
        'github.com/acme/gated',
        '\n[exports.gated]\npipes = ["greet_publicly"]\n',
      ).replace('main_pipe = "say_hello"', 'main_pipe = "greet_publicly"'),
      'gated.mthds': GATED,
    })
    .commit('gated', 'v1.0.0');
  repo('acme', 'caller')
    .write({
      'METHODS.toml': manifest('caller', 'github.com/acme/caller').replace(
        'main_pipe = "say_hello"',
        'main_pipe = "call_public"',
      ),
      'caller.mthds': CALLER,
    })
    .commit('caller', 'v1.0.0');

  return {
    server,
    commits: { v010, v020 },
    freshTag(name) {
      methods.write({ [`notes/${name}.md`]: name });
      return methods.commit(name, name);
    },
    environment: (cacheDir) => ({
      ...METHOD_TEST_ENV,
      METHOD_REF_CLONE_URL_TEMPLATE: server.template,
      METHOD_REF_ALLOW_PRIVATE_HOSTS: 'true',
      METHOD_CACHE_DIR: cacheDir,
    }),
    async close() {
      await server.close();
      for (const created of repos) created.dispose();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
