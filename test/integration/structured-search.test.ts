/**
 * Structured PipeSearch (docs/pipes.md#pipesearch): an output that is not a SearchResult makes the provider fill an
 * object
 * of the output concept's schema — on the mock (validate, execute) and through the Linkup API (the request it
 * receives: `outputType: "structured"` with the schema).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp } from '../helpers/test-app.js';

const BUNDLE = [
  'domain = "venues"',
  'main_pipe = "find_venue"',
  '[concept.Venue]',
  'description = "A concert venue"',
  '[concept.Venue.structure]',
  'name = { type = "text", description = "Its name", required = true }',
  'capacity = { type = "integer", description = "Seats", required = true }',
  '[pipe.find_venue]',
  'type = "PipeSearch"',
  'description = "Finds the largest venue of a city"',
  'inputs = { city = "Text" }',
  'output = "Venue"',
  'model = "$deep"',
  'prompt = "Largest concert venue in $city"',
].join('\n');

describe('structured PipeSearch', () => {
  describe('on the mock', () => {
    const app = buildTestApp();

    it('should validate and dry-run the pipe', async () => {
      const response = await request(app)
        .post('/v1/validate')
        .send({ mthds_contents: [BUNDLE] })
        .expect(200);
      expect(response.body, JSON.stringify(response.body.validation_errors)).to.include({ is_valid: true });
      expect(response.body.validated_pipes).to.deep.equal([{ pipe_ref: 'venues.find_venue', status: 'SUCCESS' }]);
    });

    it('should store an object of the output schema', async () => {
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], inputs: { city: 'Lyon' } })
        .expect(200);
      const output = response.body.pipe_output.working_memory.root.main_stuff;
      expect(output.concept.code).to.equal('Venue');
      expect(output.content.name).to.be.a('string');
      expect(output.content.capacity).to.be.a('number');
    });
  });

  describe('through the Linkup API', () => {
    let server: Server;
    let baseUrl: string;
    let answer: unknown;
    const received: Record<string, unknown>[] = [];
    before(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    after(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('should ask a structured output with the concept schema and store the object', async () => {
      answer = { name: 'Halle Tony Garnier', capacity: 17000 };
      const app = buildTestApp({ LINKUP_API_KEY: 'lk', LINKUP_BASE_URL: baseUrl });
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], inputs: { city: 'Lyon' } })
        .expect(200);
      const body = received.at(-1)!;
      expect(body).to.include({ q: 'Largest concert venue in Lyon', depth: 'deep', outputType: 'structured' });
      const schema = JSON.parse(String(body['structuredOutputSchema'])) as Record<string, unknown>;
      expect(schema['required']).to.deep.equal(['name', 'capacity']);
      expect(Object.keys(schema['properties'] as object)).to.deep.equal(['name', 'capacity']);
      expect(response.body.pipe_output.working_memory.root.main_stuff.content).to.deep.equal(answer);
    });

    it('should refuse an answer that does not match the schema', async () => {
      answer = { name: 'Somewhere' };
      const app = buildTestApp({ LINKUP_API_KEY: 'lk', LINKUP_BASE_URL: baseUrl });
      const response = await request(app)
        .post('/v1/execute')
        .send({ mthds_contents: [BUNDLE], inputs: { city: 'Lyon' } });
      expect(response.status).to.be.greaterThanOrEqual(400);
      expect(JSON.stringify(response.body)).to.include('the structured search answer does not match venues.Venue');
    });
  });
});
