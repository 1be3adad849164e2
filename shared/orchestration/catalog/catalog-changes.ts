/**
 * The signal that an owner's methods catalog changed (a version published, a method renamed or deleted), heard by
 * every API process of a deployment: the MCP endpoint tells its connected clients that their tool list changed
 * (docs/mcp.md#tool-list-changes). Without Redis there is one process, and the signal stays in it; with Redis it is
 * published on one channel per deployment, `<QUEUE_PREFIX>:catalog-changes`, whose message is the owner's id.
 *
 * Pub/sub reaches the processes subscribed at the moment of the publish: a client whose stream was down meanwhile lists
 * the tools again when it reconnects, as MCP clients do.
 */
import type { RedisClient } from '../../config/index.js';
import { swallowedErrors } from '../../observability/index.js';

/** Hears an owner's catalog change. */
export type CatalogChangeListener = (owner: string) => void;

/** Where catalog changes are announced and heard. */
export interface CatalogChanges {
  /**
   * Tell every API process that an owner's catalog changed. Never rejects: a signal that cannot be sent is reported
   * as a swallowed error (clients list again on their next connection).
   * @param owner - the catalog's owner (the caller's own id)
   */
  announce(owner: string): Promise<void>;
  /**
   * Hear every change until the returned function is called.
   * @param listener - called with the owner of each change
   * @returns stops hearing
   */
  listen(listener: CatalogChangeListener): () => void;
}

/** The listeners of one process. */
class Listeners {
  private readonly all = new Set<CatalogChangeListener>();

  add(listener: CatalogChangeListener): () => void {
    this.all.add(listener);
    return () => {
      this.all.delete(listener);
    };
  }

  tell(owner: string): void {
    for (const listener of this.all) listener(owner);
  }
}

/** The catalog changes of a single process (a deployment without Redis). */
export function localCatalogChanges(): CatalogChanges {
  const listeners = new Listeners();
  return {
    async announce(owner) {
      listeners.tell(owner);
    },
    listen: (listener) => listeners.add(listener),
  };
}

/** What the Redis channel is built from. */
export interface RedisCatalogChangesOptions {
  /** The connection changes are published on (any non-subscribed connection). */
  publisher: RedisClient;
  /** A connection of its own, which the channel puts in subscriber mode (one that reconnects). */
  subscriber: RedisClient;
  /** The channel's name (`QueueKeys.catalogChanges`). */
  channel: string;
}

/**
 * The catalog changes of a deployment, published and heard on Redis.
 * @param options - the two connections and the channel
 */
export function redisCatalogChanges(options: RedisCatalogChangesOptions): CatalogChanges {
  const { publisher, subscriber, channel } = options;
  const listeners = new Listeners();
  subscriber.on('message', (from: string, owner: string) => {
    if (from === channel) listeners.tell(owner);
  });
  subscriber.subscribe(channel).catch((error: unknown) => swallowedErrors.report('catalog-changes:subscribe', error));
  return {
    async announce(owner) {
      await publisher.publish(channel, owner).catch((error: unknown) => {
        swallowedErrors.report('catalog-changes:publish', error);
      });
    },
    listen: (listener) => listeners.add(listener),
  };
}
