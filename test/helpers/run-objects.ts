/**
 * Run objects for tests that build orchestrators by hand: the filesystem store in the test process's storage
 * directory, with the default thresholds.
 */
import { RunObjects } from '../../shared/orchestration/index.js';
import { FsObjectStore } from '../../shared/storage/index.js';
import { TEST_STORAGE_DIR, testSettings } from './config-dir.js';

/** Run objects in `TEST_STORAGE_DIR`. */
export function testRunObjects(): RunObjects {
  return new RunObjects(new FsObjectStore(TEST_STORAGE_DIR), testSettings().storage);
}
