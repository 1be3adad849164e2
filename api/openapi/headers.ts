/**
 * The response headers the OpenAPI document names (`components.headers`). Every response carries `X-Request-ID`
 * (spec §7.4); the others go with the statuses that set them.
 */
import type { oas31 } from 'zod-openapi';

/** Each header, as the document describes it. */
export const RESPONSE_HEADERS = {
  'X-Request-ID': {
    description: 'The request id: the inbound `X-Request-ID` when well formed, else a generated UUID.',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer' } },
  'WWW-Authenticate': { description: '`Bearer`: the route needs a bearer token.', schema: { type: 'string' } },
  Location: { description: 'Where the redirect leads.', schema: { type: 'string' } },
} satisfies Record<string, oas31.HeaderObject>;

/** A header a response may carry. */
export type ResponseHeader = keyof typeof RESPONSE_HEADERS;
