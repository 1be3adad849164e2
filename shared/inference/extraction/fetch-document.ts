/**
 * Reading a document's bytes from its `url`: a `data:` URL (decoded in place) or an http(s) URL (fetched through the
 * SSRF-guarded dispatcher, bounded in size and time). Other schemes are refused.
 */
import { request } from 'undici';
import { StuffFactoryError } from '../../errors/index.js';
import { outboundDispatcher } from '../../net/index.js';

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
  /** Allow private and loopback hosts (development and tests only). */
  allowPrivateHosts: boolean;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*?),(.*)$/s;

function fromDataUrl(url: string, limits: FetchLimits): DocumentBytes {
  const match = DATA_URL.exec(url);
  if (!match) throw new StuffFactoryError('The document data URL is malformed (expected data:<mime>;base64,<data>).');
  const isBase64 = match[2]!.split(';').includes('base64');
  const bytes = isBase64 ? Buffer.from(match[3]!, 'base64') : Buffer.from(decodeURIComponent(match[3]!), 'utf8');
  if (bytes.length > limits.maxBytes) throw new StuffFactoryError(`The document is ${bytes.length} bytes, over the ${limits.maxBytes}-byte limit.`);
  return { bytes: new Uint8Array(bytes), mimeType: match[1] ?? '' };
}

async function fromHttp(url: string, limits: FetchLimits, signal: AbortSignal | undefined): Promise<DocumentBytes> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  try {
    const response = await request(url, { dispatcher: outboundDispatcher(limits.allowPrivateHosts), signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    if (response.statusCode !== 200) {
      await response.body.dump();
      throw new StuffFactoryError(`Fetching the document ${url} answered HTTP ${response.statusCode}.`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > limits.maxBytes) {
        response.body.destroy();
        throw new StuffFactoryError(`The document ${url} is over the ${limits.maxBytes}-byte limit.`);
      }
      chunks.push(chunk as Buffer);
    }
    const contentType = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
    return { bytes: new Uint8Array(Buffer.concat(chunks)), mimeType: contentType };
  } catch (error) {
    if (error instanceof StuffFactoryError) throw error;
    throw new StuffFactoryError(`The document ${url} could not be fetched: ${timeout.aborted ? `no answer within ${limits.timeoutMs} ms` : (error as Error).message}.`, { cause: error });
  }
}

/**
 * Read a document.
 * @param url - `data:` or `http(s):` URL
 * @param limits - size, time and host policy
 * @param signal - aborts the fetch
 * @throws StuffFactoryError (422) for a refused scheme or host, a failed fetch, or an oversize document
 */
export async function fetchDocument(url: string, limits: FetchLimits, signal?: AbortSignal): Promise<DocumentBytes> {
  if (url.startsWith('data:')) return fromDataUrl(url, limits);
  if (/^https?:\/\//i.test(url)) return fromHttp(url, limits, signal);
  throw new StuffFactoryError(`The document URL '${url.slice(0, 80)}' is not a data: or http(s) URL.`);
}
