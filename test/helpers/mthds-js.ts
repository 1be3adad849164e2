/**
 * The official MTHDS JavaScript SDK and its `mthds` CLI (0.10, built for offline use), driven as they are, never copied
 * into the project. Found through `MTHDS_JS_DIR`, else `../shared/clients/mthds-js` beside the repository; suites using
 * it skip with a message where it is absent (and the mocha configuration leaves them out where `../shared` is).
 *
 * @see ../shared/clients/mthds-js/README.md, docs/conformance.md
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the SDK is looked for: `MTHDS_JS_DIR`, else `../shared/clients/mthds-js`. */
const MTHDS_JS_DIR = resolve(ROOT, process.env['MTHDS_JS_DIR'] ?? '../shared/clients/mthds-js');

/**
 * The SDK's build helpers, as `dist/index.js` exports them on `MthdsApiClient`
 * (docs/codegen.md#legacy-envelope-mthds_contents-pipe_code).
 */
export interface MthdsBuildClient {
  buildInputs(request: { mthds_contents: string[]; pipe_code: string }): Promise<unknown>;
  buildOutput(request: { mthds_contents: string[]; pipe_code: string; format?: string }): Promise<unknown>;
  buildRunner(request: { mthds_contents: string[]; pipe_code: string }): Promise<Record<string, unknown>>;
  concept(request: { spec: Record<string, unknown> }): Promise<Record<string, unknown>>;
  pipeSpec(request: { pipe_type: string; spec: Record<string, unknown> }): Promise<Record<string, unknown>>;
}

/**
 * The options of `execute`, `start` and `startAndWaitForResult` (the SDK's `RunOptions`, docs/api.md#post-v1execute).
 */
export interface MthdsRunOptions {
  pipe_code?: string;
  mthds_contents?: string[];
  inputs?: Record<string, unknown>;
  /** Extension members, merged into the body at the top level (docs/bundles.md#request-extras). */
  extra?: Record<string, unknown>;
}

/** The poll options of `waitForResult` and `startAndWaitForResult`, in milliseconds. */
export interface MthdsPollOptions {
  intervalMs?: number;
  timeoutMs?: number;
}

/**
 * Every public method of the SDK's `MthdsApiClient` (its own and those `BaseRunner` gives it), bodies as the SDK
 * returns them: unchecked JSON (docs/errors.md), so typed loosely here and asserted by the tests.
 */
export interface MthdsClient extends MthdsBuildClient {
  health(): Promise<Record<string, unknown>>;
  version(): Promise<Record<string, unknown>>;
  models(category?: string): Promise<{ models: Record<string, unknown>[] }>;
  validate(mthdsContents: string[], allowSignatures?: boolean): Promise<Record<string, unknown>>;
  execute(options: MthdsRunOptions): Promise<Record<string, unknown>>;
  start(options: MthdsRunOptions): Promise<Record<string, unknown>>;
  getRunStatus(runId: string): Promise<Record<string, unknown>>;
  getRunResult(runId: string): Promise<Record<string, unknown>>;
  waitForResult(runId: string, options?: MthdsPollOptions): Promise<Record<string, unknown>>;
  startAndWaitForResult(options: MthdsRunOptions, pollOptions?: MthdsPollOptions): Promise<Record<string, unknown>>;
}

interface MthdsJsModule {
  MthdsApiClient: new (options: { baseUrl: string; apiToken?: string }) => MthdsClient;
}

async function mthdsJsModule(): Promise<MthdsJsModule> {
  return (await import(pathToFileURL(join(MTHDS_JS_DIR, 'dist/index.js')).href)) as MthdsJsModule;
}

/**
 * Why the SDK cannot be used here, or null when it can.
 * @returns a sentence naming the missing files and how to point at them
 */
export function mthdsJsAbsence(): string | null {
  const missing = ['dist/index.js', 'dist/cli.js'].filter((file) => !existsSync(join(MTHDS_JS_DIR, file)));
  return missing.length === 0
    ? null
    : `the MTHDS JS SDK is not at ${MTHDS_JS_DIR} (missing ${missing.join(', ')}); set MTHDS_JS_DIR to its folder`;
}

/**
 * A client of the SDK for a server.
 * @param baseUrl - the server's origin, e.g. `http://127.0.0.1:41234`
 */
export async function mthdsJsClient(baseUrl: string): Promise<MthdsClient> {
  const sdk = await mthdsJsModule();
  return new sdk.MthdsApiClient({ baseUrl, apiToken: 'test-token' });
}

/**
 * The names of every method an `MthdsApiClient` has, its own and inherited (`BaseRunner`), public or not: the built
 * SDK is JavaScript, where TypeScript's `private` leaves no trace.
 * @returns the names, sorted, without `constructor`
 */
export async function mthdsJsMethodNames(): Promise<string[]> {
  const names = new Set<string>();
  let prototype: object | null = (await mthdsJsModule()).MthdsApiClient.prototype;
  while (prototype && prototype !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(prototype)) if (name !== 'constructor') names.add(name);
    prototype = Object.getPrototypeOf(prototype) as object | null;
  }
  return [...names].sort();
}

/** What a CLI run printed, and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run the `mthds` CLI against a server with the variables its README lists, so it never reaches the network.
 * @param args - the command, e.g. `['build', 'inputs', 'pipe', 'hello.mthds', '--pipe', 'greet']`
 * @param options - `baseUrl` of the server, `home` (a temporary directory, the CLI's `HOME`), `cwd`
 * @returns the exit code and the output, ANSI escapes removed
 */
export function runMthdsCli(
  args: readonly string[],
  options: { baseUrl: string; home: string; cwd: string },
): Promise<CliRun> {
  const child = spawn(process.execPath, [join(MTHDS_JS_DIR, 'dist/cli.js'), ...args], {
    cwd: options.cwd,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: options.home,
      MTHDS_RUNNER: 'api',
      MTHDS_API_URL: options.baseUrl,
      MTHDS_API_KEY: 'test-token',
      DISABLE_TELEMETRY: '1',
      MTHDS_UPDATE_CHECK: 'false',
      MTHDS_AUTO_UPGRADE: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC
  const plain = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout: plain(stdout), stderr: plain(stderr) }));
  });
}

/**
 * The JSON value the CLI printed in its message box (`●  {` … `│  }`), without the box's left border.
 * @param stdout - a {@link CliRun}'s stdout
 * @throws Error when it printed none
 */
export function printedJson(stdout: string): unknown {
  const lines = stdout.split('\n').map((line) => line.replace(/^[│●] {0,2}/, ''));
  const start = lines.findIndex((line) => line === '{' || line === '[');
  const end = lines.findIndex((line, index) => index > start && (line === '}' || line === ']'));
  if (start < 0 || end < 0) throw new Error(`the CLI printed no JSON:\n${stdout}`);
  return JSON.parse(lines.slice(start, end + 1).join('\n'));
}
