/**
 * Errors of outbound requests made on a caller's behalf (`docs/outbound-requests.md`).
 */
import { MthdsError } from './mthds-error.js';

/**
 * A URL a run asked the service to fetch names a destination the SSRF guard refuses: a loopback, private, link-local,
 * cloud-metadata or otherwise non-public address or host name, checked on the URL before connecting and on the
 * resolved address at connect time (422, input). The detail names the address class and the setting that governs it.
 * @see spec §2.3, §6 rule 3
 */
export class OutboundRequestRefusedError extends MthdsError {}
