/**
 * Version facts of this runner, read once from package.json (spec §2.11, §9).
 */
import { readFileSync } from 'node:fs';

/**
 * The MTHDS protocol version this runner implements: spec §9 rule 2 names 0.6.0; 0.7.0 adds the `judgment` model
 * category, which `GET /v1/models` lists (docs/api.md#get-v1version).
 */
export const PROTOCOL_VERSION = '0.7.0';

/** The implementation name announced by `GET /v1/version`. */
export const IMPLEMENTATION_NAME = 'mthds-runner';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** The server package version (also the runtime version: the runtime ships in the same package). */
export const IMPLEMENTATION_VERSION: string = packageJson.version;
