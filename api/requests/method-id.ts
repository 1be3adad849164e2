/**
 * `method_id`, the stored-method selector of the run and tooling routes (docs/methods.md#method_id): a catalog id
 * `mt_…`, bare (the latest published version, or the draft of a method never published), `mt_…@draft` (the draft) or
 * `mt_…@<n>` (version n).
 */
import { z } from 'zod';
import type { MethodVersionSelector } from '../../shared/database/index.js';

/** A selector: the id's characters are URL-safe (`[A-Za-z0-9_-]`); a version is a positive integer. */
const SELECTOR = /^(mt_[A-Za-z0-9_-]{1,64})(?:@(draft|[1-9][0-9]{0,8}))?$/;

/** The `method_id` member of a request. */
export const METHOD_ID = z
  .string()
  .regex(SELECTOR, 'must be a stored method’s id `mt_…`, bare or with `@draft` or `@<n>`')
  .meta({
    description:
      'A stored method of the catalog: bare `mt_…` (its latest published version, or its draft when never published), `mt_…@draft` or `mt_…@<n>` (docs/methods.md#method_id).',
  });

/** A `method_id` read: the method, and which of its contents it names. */
export interface MethodSelector {
  /** The bare id, `mt_…`. */
  methodId: string;
  selector: MethodVersionSelector;
  /** Whether the id carries a version suffix (`@draft` or `@<n>`). */
  suffixed: boolean;
}

/**
 * Read a `method_id` checked by {@link METHOD_ID}.
 * @param value - the selector
 */
export function parseMethodSelector(value: string): MethodSelector {
  const [, methodId = value, suffix] = SELECTOR.exec(value) ?? [];
  if (suffix === undefined) return { methodId, selector: 'latest', suffixed: false };
  return { methodId, selector: suffix === 'draft' ? 'draft' : Number(suffix), suffixed: true };
}
