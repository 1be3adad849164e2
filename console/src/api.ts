/**
 * The console's only way to the server: same-origin HTTP calls to the `/v1` routes (docs/api.md), each carrying the
 * key or token the person entered as `Authorization: Bearer`. The credential lives in `sessionStorage`: it survives a
 * reload and goes with the tab.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';

const TOKEN_KEY = 'mthds-console-token';

/** The credential entered at sign-in, or null. */
export function storedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

/** Keep the credential for this tab's session. */
export function storeToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

/** The event the window receives when the server refuses the credential (401): the console signs out. */
export const UNAUTHENTICATED_EVENT = 'mthds-console-unauthenticated';

/** Forget the credential (sign out). */
export function clearToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** An RFC 7807 problem document as the API answers it (docs/api.md#problem-documents), read loosely. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  error_type?: string;
  code?: string;
  request_id?: string;
  [member: string]: unknown;
}

/**
 * A call that did not succeed: the HTTP status, the problem document (or a stand-in for a body that is none), and the
 * answer's headers (a run's failure names the run in `X-Pipeline-Run-Id`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
    readonly headers: Headers = new Headers(),
  ) {
    super(problem.detail ?? problem.title ?? `HTTP ${status}`);
  }
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = storedToken();
  return { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...extra };
}

async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Problem;
  } catch {
    return { status: response.status, title: response.statusText, detail: text.slice(0, 500) };
  }
}

/**
 * Check a credential before keeping it: `GET /v1/version` with it (every deployment serves the route, behind the same
 * authentication as every `/v1` route).
 * @throws ApiError when the server refuses it
 */
export async function checkToken(token: string): Promise<void> {
  const response = await fetch('/v1/version', { headers: { Authorization: `Bearer ${token}` } });
  if (!response.ok) throw new ApiError(response.status, await problemOf(response), response.headers);
}

/**
 * Call a route and read its JSON answer.
 * @param path - `/v1/…`, with its query
 * @param init - method and JSON body (`body` is serialised here)
 * @returns the parsed body; `undefined` for a 204
 * @throws ApiError for any status outside 2xx, with the problem document
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers: headers(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  if (response.status === 401) window.dispatchEvent(new Event(UNAUTHENTICATED_EVENT));
  if (!response.ok) throw new ApiError(response.status, await problemOf(response), response.headers);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A query string of the members that are set (empty strings left out). */
export function query(parameters: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters))
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The file as standard, padded base64. */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/**
 * Upload one file (docs/uploads.md): ask `POST /v1/upload/grant`, then PUT the bytes to the signed URL with the headers
 * the grant names. A grant on another origin (an S3 bucket's presigned URL) is out of the page's reach — its policy
 * allows this origin only — so the file then goes in the body of `POST /v1/upload` instead (the unused grant stores
 * nothing and expires).
 * @returns the storage reference (`pipelex-storage://…`) a Document or Image input takes as its `url`
 * @throws ApiError when the grant, the PUT or the upload is refused
 */
export async function uploadFile(file: File): Promise<string> {
  const contentType = file.type || 'application/octet-stream';
  const grant = await api<{ uri: string; url: string; headers: Record<string, string> }>('/v1/upload/grant', {
    method: 'POST',
    body: { filename: file.name, content_type: contentType, size: file.size },
  });
  if (new URL(grant.url, location.href).origin !== location.origin) {
    const uploaded = await api<{ uri: string }>('/v1/upload', {
      method: 'POST',
      body: { filename: file.name, content_type: contentType, data: await base64Of(file) },
    });
    return uploaded.uri;
  }
  const put = await fetch(grant.url, { method: 'PUT', headers: grant.headers, body: file });
  if (!put.ok)
    throw new ApiError(put.status, { status: put.status, title: 'Upload refused', detail: await put.text() });
  return grant.uri;
}

/** One event of a run's stream (docs/run-events.md), read loosely: `type` names it. */
export interface RunEvent {
  type: string;
  at: string;
  [member: string]: unknown;
}

/** The pause before following a stream again that ended before the run did. */
const RECONNECT_DELAY_MS = 1000;

/**
 * Follow a run's events (`GET /v1/runs/{id}/events`, Server-Sent Events) with the bearer credential, which an
 * `EventSource` cannot send: the stream is read with `fetch` and parsed with `eventsource-parser`. Reconnects with
 * `Last-Event-ID` when the stream ends before `run:finished`, until `signal` aborts.
 * @param onEvent - called with each event in order
 * @throws ApiError when the stream is refused (unknown run: 404)
 */
export async function followRunEvents(
  runId: string,
  onEvent: (event: RunEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let lastId: string | undefined;
  let finished = false;
  for (let attempt = 0; !finished && !signal.aborted; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, RECONNECT_DELAY_MS));
    const response = await fetch(`/v1/runs/${encodeURIComponent(runId)}/events`, {
      headers: headers({ Accept: 'text/event-stream', ...(lastId ? { 'Last-Event-ID': lastId } : {}) }),
      signal,
    });
    if (response.status === 204) return;
    if (!response.ok || !response.body) throw new ApiError(response.status, await problemOf(response));
    const parser = createParser({
      onEvent(message: EventSourceMessage) {
        if (message.id) lastId = message.id;
        const event = JSON.parse(message.data) as RunEvent;
        if (event.type === 'run:finished') finished = true;
        onEvent(event);
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
    }
  }
}
