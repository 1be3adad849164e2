/**
 * Seals of queue jobs (docs/run-ownership.md#queue-jobs). Whoever can reach a queue through BullMQ's API — the
 * queue dashboard with writes allowed, a script with a `Queue` — can add a job or edit a job's data; a job's data is
 * therefore never trusted by itself. Each job the service adds (a run by the API, a child or a callback by a worker)
 * carries a `seal`: HMAC-SHA256, under the deployment's seal key, of its queue's name and its payload's JSON text. A
 * worker verifies the seal before it acts on the job, so a job nobody in the service added, or whose data was changed
 * after, is refused: it cannot run as another owner, write into another owner's scope or results, or have a callback
 * signed for its URL.
 *
 * The seal key is 32 random bytes kept in Redis (`<QUEUE_PREFIX>:job-seal-key`), made by the first process that needs
 * it (`SET NX`) and read once per process; BullMQ's API, and so the dashboard, never shows it. Access to Redis itself
 * is access to every run (their inputs, records and this key): it is part of the trusted base.
 *
 * The MAC covers `JSON.stringify` of the payload: BullMQ stores a job's data as that text and a worker gets it back
 * with `JSON.parse`, whose objects list their keys in the same order, so the worker's `JSON.stringify` of the data
 * without its `seal` is the text that was sealed (one native serialisation on each side, no canonical form to build).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { RedisClient } from '../../config/index.js';
import type { QueueKeys } from './queue-keys.js';

/** Job data as queued: a payload and its seal. */
export type Sealed<T> = T & { seal: string };

/** Set the key when it is absent, then answer the key (one round trip, whichever process comes first). */
const SEAL_KEY_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`;

const SEAL_LENGTH = 64;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The seals of one deployment's jobs. */
export class JobSeals {
  private key: Promise<Buffer> | undefined;

  /**
   * @param redis - a connection to the deployment's Redis (the key is read on first use)
   * @param keys - the deployment's key names
   */
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: QueueKeys,
  ) {}

  /** The seal key, read (or made) once per process; a failed read is tried again on the next use. */
  private sealKey(): Promise<Buffer> {
    if (!this.key) {
      const candidate = randomBytes(32).toString('hex');
      this.key = (this.redis.eval(SEAL_KEY_SCRIPT, 1, this.keys.sealKey, candidate) as Promise<string>).then((hex) =>
        Buffer.from(hex, 'hex'),
      );
      this.key.catch(() => {
        this.key = undefined;
      });
    }
    return this.key;
  }

  private async mac(queue: string, text: string): Promise<Buffer> {
    return createHmac('sha256', await this.sealKey())
      .update(`${queue}\n${text}`)
      .digest();
  }

  /**
   * The data of a job the service adds: its payload and the payload's seal.
   * @param queue - the queue the job goes to (a sealed payload is valid on that queue only)
   * @param payload - a plain-JSON payload without a `seal` member
   * @returns the payload with its `seal` (64 hex digits) as the last member
   * @throws whatever the Redis call throws when the seal key cannot be read
   */
  async seal<T extends object>(queue: string, payload: T): Promise<Sealed<T>> {
    const seal = (await this.mac(queue, JSON.stringify(payload))).toString('hex');
    // not `{ ...payload, seal }` (CONTRIBUTING.md#22-no-leading-spread-on-the-hot-path)
    return Object.assign({}, payload, { seal });
  }

  /**
   * The payload of a job's data whose seal verifies (compared in constant time).
   * @param queue - the queue the job was taken from
   * @param data - the job's data
   * @returns the payload without its seal, to validate against its schema; undefined when the data has no seal or its
   *   seal does not match its payload (the job was not added by the service, or was changed since)
   * @throws whatever the Redis call throws when the seal key cannot be read
   */
  async open(queue: string, data: unknown): Promise<Record<string, unknown> | undefined> {
    if (!isRecord(data) || typeof data['seal'] !== 'string' || data['seal'].length !== SEAL_LENGTH) return undefined;
    const { seal, ...payload } = data;
    const expected = await this.mac(queue, JSON.stringify(payload));
    const presented = Buffer.from(seal as string, 'hex');
    return presented.length === expected.length && timingSafeEqual(presented, expected) ? payload : undefined;
  }
}
