/**
 * The anchors the benchmark compares the service with, measured in the same run on the same machine:
 * **E**, a bare Express 5 server whose only route echoes a JSON body (`express.json()`), **E+S**, the same server
 * keeping each answer in a file as the service keeps every finished run, and **Q**, raw BullMQ on the same Redis (add,
 * process with a no-op worker, completed).
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { Queue, QueueEvents, Worker } from 'bullmq';
import express from 'express';
import { FsObjectStore, runObjectName } from '../shared/storage/index.js';

/** A server listening on 127.0.0.1. */
export interface ListeningServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Listen on an ephemeral loopback port.
 * @param server - an HTTP server not yet listening
 */
export async function listen(server: Server): Promise<ListeningServer> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Start anchor E: Express 5 with `express.json()` (limit 64 MiB) echoing every POSTed body on any path, and answering
 * any GET with `{}`. With `keepIn`, anchor E+S: before answering, each echoed body is kept as an object of the
 * service's own filesystem store rooted there, as a finished run is kept in `results/` (docs/storage.md).
 * @param keepIn - a directory, for E+S; the caller removes it
 */
export function startEchoAnchor(keepIn?: string): Promise<ListeningServer> {
  const store = keepIn === undefined ? undefined : new FsObjectStore(keepIn);
  const app = express();
  app.use(express.json({ limit: '64mb' }));
  app.post('/{*path}', async (req, res) => {
    if (store) {
      const key = { scope: 'anchor', leaf: 'results' as const, name: runObjectName(randomUUID(), 'json') };
      await store.put(key, new TextEncoder().encode(JSON.stringify(req.body)), 'application/json');
    }
    res.json(req.body);
  });
  app.get('/{*path}', (_req, res) => {
    res.json({});
  });
  return listen(app.listen(0, '127.0.0.1'));
}

/**
 * POST a JSON body `count` times, one request at a time, with the client the service's trips use (`fetch`).
 * @param url - the route's full URL
 * @param body - the request body
 * @param count - requests
 * @returns each round trip in ms
 */
export async function httpRoundTrips(url: string, body: unknown, count: number): Promise<number[]> {
  const trips: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const started = performance.now();
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await answer.arrayBuffer();
    trips.push(performance.now() - started);
  }
  return trips;
}

/** Anchor Q: raw BullMQ on one queue of its own. */
export interface RawQueueAnchor {
  /**
   * Add jobs from `concurrency` loops for `seconds`.
   * @returns jobs added per second
   */
  addRate(seconds: number, concurrency: number, payload: unknown): Promise<number>;
  /**
   * Add one job at a time and wait until the no-op worker completed it.
   * @returns each round trip in ms
   */
  roundTrips(count: number, payload: unknown): Promise<number[]>;
  /**
   * Add `count` jobs, then start a worker of `concurrency` whose jobs each wait `latencyMs`.
   * @returns jobs completed per second, from the worker's start to the last completion
   */
  drainRate(count: number, concurrency: number, latencyMs: number, payload: unknown): Promise<number>;
  close(): Promise<void>;
}

/**
 * Open anchor Q on `redisUrl` under `prefix`; round trips run a no-op worker, started for them and closed after.
 * @param redisUrl - `redis://…`
 * @param prefix - BullMQ key prefix, unique to this run
 */
export async function openRawQueueAnchor(redisUrl: string, prefix: string): Promise<RawQueueAnchor> {
  const connection = { url: redisUrl };
  const queue = new Queue('anchor', { connection, prefix });
  const events = new QueueEvents('anchor', { connection, prefix });
  await events.waitUntilReady();
  let sequence = 0;
  return {
    async addRate(seconds, concurrency, payload) {
      const deadline = performance.now() + seconds * 1000;
      let added = 0;
      const loop = async () => {
        while (performance.now() < deadline) {
          await queue.add('job', payload, { removeOnComplete: true, removeOnFail: true });
          added += 1;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, loop));
      await queue.obliterate({ force: true });
      return added / seconds;
    },
    async roundTrips(count, payload) {
      const worker = new Worker('anchor', async () => ({ ok: true }), { connection, prefix });
      await worker.waitUntilReady();
      const trips: number[] = [];
      for (let index = 0; index < count; index += 1) {
        sequence += 1;
        const started = performance.now();
        const job = await queue.add('job', payload, { jobId: `trip-${sequence}` });
        await job.waitUntilFinished(events);
        trips.push(performance.now() - started);
      }
      await worker.close();
      return trips;
    },
    async drainRate(count, concurrency, latencyMs, payload) {
      await queue.addBulk(
        Array.from({ length: count }, () => ({ name: 'job', data: payload, opts: { removeOnComplete: true } })),
      );
      const drained = completions(events, count);
      const started = performance.now();
      const worker = new Worker('anchor', () => delay(latencyMs, { ok: true }), { connection, prefix, concurrency });
      await drained;
      const seconds = (performance.now() - started) / 1000;
      await worker.close();
      return count / seconds;
    },
    async close() {
      await events.close();
      await queue.obliterate({ force: true });
      await queue.close();
    },
  };
}

/**
 * Resolve once `events` has seen `count` completed jobs.
 * @param events - the queue's events
 * @param count - completions to wait for
 */
export function completions(events: QueueEvents, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const onCompleted = () => {
      seen += 1;
      if (seen < count) return;
      events.off('completed', onCompleted);
      resolve();
    };
    events.on('completed', onCompleted);
  });
}
