/**
 * A Server-Sent Events reader for tests: one GET on a listening server, the `text/event-stream` body parsed into its
 * events and comments as they come, until the server ends the stream, or the reader stops after a number of events.
 */
import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One event of the stream. */
export interface SseFrame {
  /** The `id:` line, absent when the event has none. */
  id?: string;
  event: string;
  /** The `data:` line, parsed as JSON. */
  data: unknown;
}

/** What a read saw. */
export interface SseAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  frames: SseFrame[];
  /** Comment lines, without their `:`. */
  comments: string[];
  /** True when the server ended the response; false when the reader stopped it. */
  ended: boolean;
  /** The body when it was not an event stream (a problem document). */
  body: string;
}

function parseBlock(block: string, answer: SseAnswer): void {
  const frame: Partial<SseFrame> & { lines: string[] } = { lines: [] };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) answer.comments.push(line.slice(1).trim());
    else if (line.startsWith('id: ')) frame.id = line.slice(4);
    else if (line.startsWith('event: ')) frame.event = line.slice(7);
    else if (line.startsWith('data: ')) frame.lines.push(line.slice(6));
  }
  if (frame.event === undefined) return;
  answer.frames.push({
    ...(frame.id === undefined ? {} : { id: frame.id }),
    event: frame.event,
    data: JSON.parse(frame.lines.join('\n')),
  });
}

/**
 * Read an event stream.
 * @param server - the server (listening on loopback)
 * @param path - the route
 * @param headers - request headers (`Authorization`, `Last-Event-ID`)
 * @param stopAfter - stop (close the connection) once this many events arrived; by default read until the end
 * @returns status, headers, events, comments, and whether the server ended the stream
 */
export function readEventStream(
  server: Server,
  path: string,
  headers: Record<string, string> = {},
  stopAfter = Number.POSITIVE_INFINITY,
): Promise<SseAnswer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (response) => {
      const answer: SseAnswer = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        frames: [],
        comments: [],
        ended: false,
        body: '',
      };
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        if (!String(response.headers['content-type']).startsWith('text/event-stream')) {
          answer.body += chunk;
          return;
        }
        buffer += chunk;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          parseBlock(buffer.slice(0, end), answer);
          buffer = buffer.slice(end + 2);
          end = buffer.indexOf('\n\n');
        }
        if (answer.frames.length >= stopAfter) {
          request.destroy();
          resolve(answer);
        }
      });
      response.on('end', () => {
        answer.ended = true;
        resolve(answer);
      });
      response.on('error', () => resolve(answer));
    });
    request.on('error', reject);
  });
}
