/**
 * The shape of a `storage_scope` (spec §2.3, §8): of a run request, and of the scopes a token's `storage_scopes` claim
 * grants (docs/run-ownership.md). The pattern is the object store's own (`shared/storage`), so a scope a request may
 * name is exactly a prefix the store can hold.
 */
import { z } from 'zod';
import { STORAGE_SCOPE_PATTERN } from '../../shared/storage/object-key.js';

/** A storage scope: one to three path-safe segments (`[A-Za-z0-9_-]`) separated by `/` (spec §2.3, §8). */
export const STORAGE_SCOPE = z
  .string()
  .regex(STORAGE_SCOPE_PATTERN, 'must be 1 to 3 path-safe segments ([A-Za-z0-9_-]) separated by /');
