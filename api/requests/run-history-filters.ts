/**
 * The filters of the run history (docs/api.md#run-history): what `GET /v1/runs` narrows its page with, and what the
 * bulk cancel (`POST /v1/runs/cancel`, docs/cancellation.md#bulk-cancel) narrows the runs it stops with.
 */
import { z } from 'zod';
import { BadRequest } from '../../shared/errors/index.js';
import { refuseAs } from '../request-schema.js';

/** An instant with its offset; a naive one is refused (400), so no range depends on the server's zone. */
export const INSTANT = z.string().superRefine((value, context) => {
  if (!z.iso.datetime({ offset: true }).safeParse(value).success)
    refuseAs(context, BadRequest, `'${value}' is not an ISO 8601 instant with an offset (e.g. 2026-11-29T10:00:00Z).`);
});

/** A method id of the catalog, bare: a version suffix (`@3`, `@draft`) names no method of the history. */
export const BARE_METHOD_ID = z
  .string()
  .max(128)
  .superRefine((value, context) => {
    if (value.includes('@'))
      refuseAs(
        context,
        BadRequest,
        `method_id '${value}' carries a version suffix; the history filters by the bare id.`,
      );
  });

/**
 * The states a filter names: its `state` and `status` members (each a comma-separated list, or a list of them),
 * upper-cased, blanks dropped.
 * @param filter - the members as sent
 * @returns the states, or undefined when it names none
 */
export function filterStates(filter: {
  state?: string | readonly string[] | undefined;
  status?: string | readonly string[] | undefined;
}): string[] | undefined {
  const listed = [filter.state, filter.status]
    .flat()
    .filter((value) => value !== undefined)
    .join(',');
  if (listed === '') return undefined;
  return listed
    .split(',')
    .map((state) => state.trim().toUpperCase())
    .filter((state) => state !== '');
}
