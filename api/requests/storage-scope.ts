/**
 * The shape of a `storage_scope` (spec §2.3, §8): of a run request, and of the scopes a token's `storage_scopes` claim
 * grants (docs/run-ownership.md).
 */
import { z } from 'zod';

/** A storage scope: one to three path-safe segments (`[A-Za-z0-9_-]`) separated by `/` (spec §2.3, §8). */
export const STORAGE_SCOPE = z
  .string()
  .regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+){0,2}$/, 'must be 1 to 3 path-safe segments ([A-Za-z0-9_-]) separated by /');
