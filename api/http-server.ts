/**
 * The API's HTTP server, with its connection caps and time bounds (docs/limits.md#connections). A process has a
 * bounded number of descriptors, and every connection holds one whether or not it ever sends a request, so:
 *
 * - at most `HTTP_MAX_CONNECTIONS_PER_IP` connections are open from one client address: one more is closed as it
 *   arrives, so one client cannot take every slot;
 * - at most `HTTP_MAX_CONNECTIONS` are open in all. When a connection arrives with every slot taken, the oldest
 *   connection that has not yet sent a request's headers (silent, or slow) is closed to make room, so a new client —
 *   a load balancer's `/health` probe among them — gets in even while many clients flood the server with half-open
 *   connections; only when every slot holds a request is the new connection closed instead;
 * - a connection that has not sent a request's complete headers within `HTTP_HEADERS_TIMEOUT_MS` of opening (or of
 *   starting that request), or the whole request within `HTTP_REQUEST_TIMEOUT_MS`, is answered 408 and closed;
 * - an idle keep-alive connection is closed after `HTTP_KEEP_ALIVE_TIMEOUT_MS`.
 *
 * Responses are not bounded here: a blocking `/v1/execute` or an event stream may take as long as its own limits say.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpServerSettings } from '../shared/config/index.js';

/**
 * Why a connection was closed by a cap: a new one from an address at `HTTP_MAX_CONNECTIONS_PER_IP` (`per_ip`), a new
 * one while every slot of `HTTP_MAX_CONNECTIONS` holds a request (`total`), or an older one that had sent no request,
 * closed to make room for a new one (`evicted`).
 */
export type ConnectionRefusal = 'per_ip' | 'total' | 'evicted';

/** How often, at most, open requests are checked against the headers and request timeouts, in ms. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** The open connections of a server, by client address, and those that have not sent a request yet. */
class ConnectionGate {
  /** Every open connection, with its client address. */
  private readonly open = new Map<Socket, string>();
  /** Open connections per client address. */
  private readonly perAddress = new Map<string, number>();
  /** Connections that have not sent a request's headers yet, oldest first (a `Set` keeps insertion order). */
  private readonly waiting = new Set<Socket>();

  constructor(
    private readonly limits: HttpServerSettings,
    private readonly onRefused: (reason: ConnectionRefusal) => void,
  ) {}

  /** Admit a new connection, close it, or close the oldest waiting one to make room for it. */
  admit(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    const fromAddress = this.perAddress.get(address) ?? 0;
    if (this.limits.maxConnectionsPerIp > 0 && fromAddress >= this.limits.maxConnectionsPerIp) {
      this.refuse(socket, 'per_ip');
      return;
    }
    if (this.open.size >= this.limits.maxConnections) {
      const oldest = this.waiting.values().next().value;
      if (!oldest) {
        this.refuse(socket, 'total');
        return;
      }
      this.forget(oldest);
      oldest.destroy();
      this.onRefused('evicted');
    }
    this.open.set(socket, address);
    this.perAddress.set(address, fromAddress + 1);
    this.waiting.add(socket);
    socket.once('close', () => this.forget(socket));
  }

  /** A connection sent a request's headers: it is no longer the first to make room. */
  requested(socket: Socket): void {
    this.waiting.delete(socket);
  }

  private refuse(socket: Socket, reason: ConnectionRefusal): void {
    socket.destroy();
    this.onRefused(reason);
  }

  private forget(socket: Socket): void {
    const address = this.open.get(socket);
    if (address === undefined) return;
    this.open.delete(socket);
    this.waiting.delete(socket);
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left === 0) this.perAddress.delete(address);
    else this.perAddress.set(address, left);
  }
}

/**
 * Create the HTTP server of a request listener, with the connection caps and time bounds of `limits` (not listening
 * yet).
 * @param listener - the application (the Express app)
 * @param limits - the caps (connections) and bounds (ms) of `Settings.http`
 * @param onRefused - told of each connection a cap closed, and why (for metrics)
 * @returns the server
 */
export function createHttpServer(
  listener: RequestListener,
  limits: HttpServerSettings,
  onRefused: (reason: ConnectionRefusal) => void,
): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, limits.headersTimeoutMs),
    },
    listener,
  );
  const gate = new ConnectionGate(limits, onRefused);
  server.on('connection', (socket: Socket) => gate.admit(socket));
  server.on('request', (request: IncomingMessage) => gate.requested(request.socket));
  return server;
}
