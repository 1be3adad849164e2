/**
 * Reading a document's bytes from its `url`: a `data:` URL (decoded in place) or an http(s) URL (fetched through the
 * SSRF guard of `shared/net`, bounded in size and time, up to `DOCUMENT_MAX_REDIRECTS` redirects followed, each hop
 * checked as the first). Other schemes are refused.
 * @see docs/outbound-requests.md
 */
import { OutboundRequestRefusedError, StuffFactoryError } from '../../errors/index.js';
import { type GuardedResponse, guardedRequest, type HostResolver } from '../../net/index.js';

/** A fetched document. */
export interface DocumentBytes {
  bytes: Uint8Array;
  /** MIME type from the data URL, the response or the caller; may be empty. */
  mimeType: string;
}

/** Limits of document fetching. */
export interface FetchLimits {
  /** Largest document, in bytes. */
  maxBytes: number;
  /** Timeout of one fetch, in ms. */
  timeoutMs: number;
  /**
   * `DOCUMENT_ALLOW_PRIVATE_HOSTS`: also accept loopback and private hosts (development and tests only; never cloud
   * metadata).
   */
  allowPrivateHosts: boolean;
  /** `DOCUMENT_MAX_REDIRECTS`: redirects followed, each hop's URL and connection checked by the same guard. */
  maxRedirects: number;
  /** How host names resolve; the system resolver by default (tests map names without DNS). */
  resolver?: HostResolver;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*?),(.*)$/s;

function fromDataUrl(url: string, limits: FetchLimits): DocumentBytes {
  const match = DATA_URL.exec(url);
  if (!match) throw new StuffFactoryError('The document data URL is malformed (expected data:<mime>;base64,<data>).');
  const isBase64 = match[2]!.split(';').includes('base64');
  const bytes = isBase64 ? Buffer.from(match[3]!, 'base64') : Buffer.from(decodeURIComponent(match[3]!), 'utf8');
  if (bytes.length > limits.maxBytes)
    throw new StuffFactoryError(`The document is ${bytes.length} bytes, over the ${limits.maxBytes}-byte limit.`);
  return { bytes: new Uint8Array(bytes), mimeType: match[1] ?? '' };
}

async function fromHttp(url: string, limits: FetchLimits, signal: AbortSignal | undefined): Promise<DocumentBytes> {
  let response: GuardedResponse;
  try {
    response = await guardedRequest(url, {
      subject: 'The document URL',
      method: 'GET',
      policy: { allowPrivateHosts: limits.allowPrivateHosts, setting: 'DOCUMENT_ALLOW_PRIVATE_HOSTS' },
      timeoutMs: limits.timeoutMs,
      maxResponseBytes: limits.maxBytes,
      maxRedirects: limits.maxRedirects,
      ...(signal ? { signal } : {}),
      ...(limits.resolver ? { resolver: limits.resolver } : {}),
    });
  } catch (error) {
    if (error instanceof OutboundRequestRefusedError) throw error;
    throw new StuffFactoryError(`The document ${url} could not be fetched: ${(error as Error).message}.`, {
      cause: error,
    });
  }
  if (response.statusCode >= 300 && response.statusCode < 400) {
    throw new StuffFactoryError(
      `Fetching the document ${url} answered HTTP ${response.statusCode} after ${limits.maxRedirects} redirects (DOCUMENT_MAX_REDIRECTS); give the final URL.`,
    );
  }
  if (response.statusCode !== 200)
    throw new StuffFactoryError(`Fetching the document ${url} answered HTTP ${response.statusCode}.`);
  if (!response.body) throw new StuffFactoryError(`The document ${url} is over the ${limits.maxBytes}-byte limit.`);
  const contentType = String(response.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  return { bytes: new Uint8Array(response.body), mimeType: contentType };
}

/**
 * Read a document.
 * @param url - `data:` or `http(s):` URL
 * @param limits - size, time and host policy
 * @param signal - aborts the fetch
 * @throws OutboundRequestRefusedError (422) for a loopback, private, link-local, cloud-metadata or other non-public
 *   destination, named in the URL or resolved at connect time
 * @throws StuffFactoryError (422) for a refused scheme, a failed fetch, more redirects than `maxRedirects`, a non-200
 * answer, or an oversize document
 */
export async function fetchDocument(url: string, limits: FetchLimits, signal?: AbortSignal): Promise<DocumentBytes> {
  if (url.startsWith('data:')) return fromDataUrl(url, limits);
  if (/^https?:\/\//i.test(url)) return fromHttp(url, limits, signal);
  throw new StuffFactoryError(`The document URL '${url.slice(0, 80)}' is not a data: or http(s) URL.`);
}
