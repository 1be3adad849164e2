/**
 * What a `[pipe.x]` table is, decided before type dispatch (docs/pipes.md#pipesignature, pipelex-api 0.16
 * `PipeSignatureBlueprint`, which has no `type`):
 * 1. a `type` naming a pipe type → that pipe type;
 * 2. no `type`, and only the keys a signature holds (`description`, `inputs`, `output`, `signature_for`) → a
 *    contract-only signature (`signature_for` optional);
 * 3. no `type` and any other key → a missing type (the stray keys are named, no type is guessed);
 * 4. `type = "PipeSignature"` → the retired tag (refused as an unknown pipe type, with a migration message);
 * 5. any other `type` → an unknown pipe type.
 */
import { type PipeType, SCHEMA_PIPE_TYPES } from './pipe-blueprints.js';

/** The keys a contract-only signature may hold. */
const SIGNATURE_KEYS: readonly string[] = ['description', 'inputs', 'output', 'signature_for'];

/** The kind of a pipe table. */
export type PipeTableKind =
  | { kind: 'typed'; type: Exclude<PipeType, 'PipeSignature'> }
  | { kind: 'signature' }
  | { kind: 'missing_type'; stray: string[] }
  | { kind: 'retired_signature_tag' }
  | { kind: 'unknown_type'; value: unknown };

/**
 * Classify a pipe table.
 * @param table - the table as parsed (JSON values)
 * @returns its kind; for a missing type, the keys a signature cannot hold, in written order
 */
export function pipeTableKind(table: Record<string, unknown>): PipeTableKind {
  const type = table['type'];
  if (type === undefined) {
    const stray = Object.keys(table).filter((key) => !SIGNATURE_KEYS.includes(key));
    return stray.length === 0 ? { kind: 'signature' } : { kind: 'missing_type', stray };
  }
  if (type === 'PipeSignature') return { kind: 'retired_signature_tag' };
  if (typeof type === 'string' && (SCHEMA_PIPE_TYPES as readonly string[]).includes(type))
    return { kind: 'typed', type: type as Exclude<PipeType, 'PipeSignature'> };
  return { kind: 'unknown_type', value: type };
}
