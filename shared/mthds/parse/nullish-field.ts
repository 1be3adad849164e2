/**
 * The optional fields of the blueprint schemas: a field may be absent or null, and reads as absent either way, so a
 * blueprint never holds a null (docs/bundle-format.md).
 */
import type { z } from 'zod';

/**
 * A schema's optional form: absent, `undefined` or `null`, each read as `undefined`.
 * @param schema - the field's schema when present
 */
export const nullish = <T extends z.ZodType>(schema: T) => schema.nullish().transform((value) => value ?? undefined);
