/**
 * The configuration directory of the tests: an empty `SERVICE_CONFIG_DIR` of this test process, so that nothing a
 * developer keeps in the repository's `config/` (an `api_override.toml` left by the README's queue-mode step, an
 * `inference/` override) reaches a test. Every helper that builds settings or spawns a service uses it unless the test
 * names its own directory.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Environment, loadSettings, type Settings } from '../../shared/config/index.js';

/** The empty directory, created at first import and removed when the test process exits. */
export const TEST_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mthds-test-config-'));
/** The `STORAGE_DIR` of this test process's services unless a test names its own, removed when the process exits. */
export const TEST_STORAGE_DIR = mkdtempSync(join(tmpdir(), 'mthds-test-storage-'));
/**
 * Where the API processes spawned without `DATABASE_URL` (benches, or a test that unsets it) keep their embedded
 * databases, one directory each; removed when the process exits.
 */
export const TEST_DATABASE_DIR = mkdtempSync(join(tmpdir(), 'mthds-test-database-'));
/**
 * The `SERVICE_CONFIG_DIR` of queue-mode services: its `api_override.toml` sets `orchestration_mode = "bullmq"` and
 * nothing else. Services only read it, so every test of the process shares it; removed when the process exits.
 */
export const QUEUE_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mthds-test-queue-config-'));
writeFileSync(join(QUEUE_CONFIG_DIR, 'api_override.toml'), 'orchestration_mode = "bullmq"\n');
process.once('exit', () => {
  for (const directory of [TEST_CONFIG_DIR, TEST_STORAGE_DIR, TEST_DATABASE_DIR, QUEUE_CONFIG_DIR])
    rmSync(directory, { recursive: true, force: true });
});

/**
 * Settings as a service would load them from `environment`, in the tests' configuration and storage directories unless
 * it names its own.
 * @param environment - the variables a test sets (defaults apply to the rest)
 */
export function testSettings(environment: Environment = {}): Settings {
  return loadSettings({ SERVICE_CONFIG_DIR: TEST_CONFIG_DIR, STORAGE_DIR: TEST_STORAGE_DIR, ...environment });
}
