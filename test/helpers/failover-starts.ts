/**
 * Starting runs through a Redis failover (the Sentinel and Cluster tests): each start is sent again while the API
 * answers 503 `QueueUnavailableError`, and the times of the acknowledgements and the refusals are kept, to tell when
 * the API answered 202 again.
 */
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';

/** The starts of one test. */
export class FailoverStarts {
  /** The run ids acknowledged, in order. */
  readonly acknowledged: string[] = [];
  /** When each 503 was answered, epoch ms. */
  readonly refusals: number[] = [];
  /** When each 202 was answered, epoch ms. */
  readonly acceptances: number[] = [];

  /** @param app - the API */
  constructor(private readonly app: Express) {}

  /**
   * Start one run, again after each 503, until it is acknowledged.
   * @param body - the `/v1/start` body
   * @returns its run id
   * @throws AssertionError on an answer that is neither 202 nor a retryable 503 `QueueUnavailableError`
   */
  async start(body: object): Promise<string> {
    for (;;) {
      const answer = await request(this.app).post('/v1/start').send(body);
      if (answer.status === 202) {
        const runId = answer.body.pipeline_run_id as string;
        this.acceptances.push(Date.now());
        this.acknowledged.push(runId);
        return runId;
      }
      expect(answer.status, JSON.stringify(answer.body)).to.equal(503);
      expect(answer.body).to.include({ error_type: 'QueueUnavailableError', retryable: true });
      this.refusals.push(Date.now());
    }
  }

  /**
   * When the API answered 202 again after an event: the first acknowledgement after the event and every refusal.
   * @param since - the event (a failover's start), epoch ms
   */
  backAfter(since: number): number {
    const lastRefusal = Math.max(since, ...this.refusals);
    return Math.min(...this.acceptances.filter((at) => at >= lastRefusal));
  }
}
