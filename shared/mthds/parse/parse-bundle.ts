/**
 * Parse one bundle: TOML (S1), then the blueprint schemas (the schema part of S2). The entry point for callers that
 * want
 * one blueprint and an exception; {@link loadLibrary} collects items instead.
 *
 * @see docs/bundle-format.md, docs/rules.md–S2
 */
import { MthdsParserError } from '../../errors/index.js';
import { MESSAGES } from '../messages.js';
import type { BundleBlueprint } from './blueprint.js';
import { checkBlueprint } from './check-blueprint.js';
import { parseToml } from './parse-toml.js';

/**
 * Parse one `.mthds` text into its typed blueprint (as written; nothing resolved).
 * @param content - the `.mthds` text
 * @param source - its logical file name, or null
 * @returns the blueprint: header, concepts and pipes (a pipe table with no `type` but `signature_for` is a
 * `PipeSignature`)
 * @throws MthdsParserError for a TOML syntax error (with the 1-based line and column in `position`) and for TOML that
 *   is not a bundle (empty, missing `domain`, unknown keys, an unknown pipe `type`…; the message lists every problem)
 * @see docs/bundle-format.md, docs/concepts.md, docs/language.md
 * @example parseBundle('domain = "greetings"\n[concept]\nGreeting = "A greeting"', 'greetings.mthds').concept
 *   // → { Greeting: 'A greeting' }
 */
export function parseBundle(content: string, source: string | null): BundleBlueprint {
  const checked = checkBlueprint(parseToml(content, source), source);
  if (checked.blueprint) return checked.blueprint;
  throw new MthdsParserError(MESSAGES.invalid_bundle({ source, problems: checked.items.map((item) => item.message) }));
}
