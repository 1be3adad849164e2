/**
 * Regression of issue 29, finding 7 (deep concept chains): a bundle whose concept C1 has a field of concept C2, C2 one
 * of C3, … down to C300 made `/v1/execute` a 500 (`RangeError: Maximum call stack size exceeded`, in the compilation
 * of the output's JSON schema) and `/v1/validate` a dry-run item "An unexpected error occurred". Every walk over a
 * concept's structure (content schemas and their validators, mock values, forms, inputs templates, typed
 * projections) recurses once per level, and those that expand a nested concept where it is used grow with the
 * product of the fields on the way (a 16 KiB bundle of five concepts of forty fields held a thread for a minute).
 *
 * The depth and the expanded size of a concept are now language limits (`MAX_CONCEPT_DEPTH`, `MAX_CONCEPT_FIELDS`),
 * measured without recursion by the structure rule `S3-concept-extent` before any of those walks runs: one positioned
 * item at the head of the chain, on every route that reads a bundle (docs/limits.md#concept-structures).
 */
import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { buildTestApp } from '../helpers/test-app.js';

/** The chain of the issue: C1 has a field of C2, … C{depth} has a text field; a PipeLLM outputs C1. */
function chainBundle(depth: number): string {
  const concepts = Array.from({ length: depth }, (_, index) => {
    const field =
      index + 1 < depth
        ? `next = { type = "concept", concept_ref = "C${index + 2}", description = "n" }`
        : 'leaf = { type = "text", description = "l" }';
    return `[concept.C${index + 1}]\ndescription = "c${index + 1}"\n\n[concept.C${index + 1}.structure]\n${field}\n`;
  });
  return `domain = "deep"\nmain_pipe = "make"\n\n${concepts.join('\n')}\n[pipe.make]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { name = "Text" }\noutput = "C1"\nprompt = "Hi $name."\n`;
}

/** Five levels of forty required fields each naming the next level: 105,025,640 fields once expanded. */
function wideBundle(): string {
  const levels = Array.from({ length: 5 }, (_, level) => {
    const fields = Array.from({ length: 40 }, (_, index) =>
      level < 4
        ? `f${index} = { type = "concept", concept_ref = "W${level + 2}", description = "n", required = true }`
        : `f${index} = { type = "text", description = "l", required = true }`,
    );
    return `[concept.W${level + 1}]\ndescription = "w"\n\n[concept.W${level + 1}.structure]\n${fields.join('\n')}\n`;
  });
  return `domain = "wide"\nmain_pipe = "make"\n\n${levels.join('\n')}\n[pipe.make]\ntype = "PipeLLM"\ndescription = "d"\ninputs = { w = "W1" }\noutput = "Text"\nprompt = "Hi $w."\n`;
}

const TOO_DEEP = {
  category: 'blueprint_validation',
  message:
    "Concept 'C1' nests 300 concepts deep (deep.C1 → deep.C2 → deep.C3 → deep.C4 → …), over 32 (MAX_CONCEPT_DEPTH): a chain of concepts, each naming the next through a structure field or refines, is at most 32 long. Flatten the structure.",
  error_type: 'concept_structure_too_large',
  source: null,
  concept_code: 'C1',
  domain_code: 'deep',
  field_path: 'concept.C1.structure.next.concept_ref',
  field_name: 'concept_ref',
};

const TOO_WIDE = {
  category: 'blueprint_validation',
  message:
    "Concept 'W1' expands to 105,025,640 fields (each nested concept's fields counted where it is used), over 2,000 (MAX_CONCEPT_FIELDS). Use fewer or smaller nested concepts.",
  error_type: 'concept_structure_too_large',
  source: null,
  concept_code: 'W1',
  domain_code: 'wide',
  field_path: 'concept.W1.structure',
  field_name: 'structure',
};

async function expectHealthy(app: Express): Promise<void> {
  const health = await request(app).get('/health').expect(200);
  expect(health.body).to.deep.equal({ status: 'ok', message: 'MTHDS runner is running' });
}

describe('regression: concept structures are bounded in depth and size (issue 29, finding 7)', function () {
  this.timeout(60000);
  const app = buildTestApp();
  const chain = chainBundle(300);

  it('should answer /v1/execute of a 300-deep chain with 422 ValidateBundleError at the head of the chain', async () => {
    const answer = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [chain], inputs: { name: 'Ada' } })
      .expect(422);
    expect(answer.headers['content-type']).to.equal('application/problem+json');
    expect(answer.body).to.deep.include({
      type: '/errors/validate-bundle-error/',
      status: 422,
      detail: `Validation error(s): ${TOO_DEEP.message}`,
      instance: '/v1/execute',
      error_type: 'ValidateBundleError',
      error_domain: 'input',
      validation_errors: [TOO_DEEP],
    });
    await expectHealthy(app);
  });

  it('should answer /v1/validate of the chain with an invalid verdict holding that one item', async () => {
    const answer = await request(app)
      .post('/v1/validate')
      .send({ mthds_contents: [chain] })
      .expect(200);
    expect(answer.body).to.deep.include({ is_valid: false, validation_errors: [TOO_DEEP], is_runnable: false });
    await expectHealthy(app);
  });

  for (const [path, body] of [
    ['/v1/resolve', { files: [{ content: chain }] }],
    ['/v1/codegen', { files: [{ content: chain }], kind: 'types', target: 'ts-zod' }],
    ['/v1/build/inputs', { files: [{ content: chain }], pipe_ref: 'deep.make', format: 'json' }],
    ['/v1/build/output', { files: [{ content: chain }], pipe_ref: 'deep.make', format: 'schema' }],
  ] as const) {
    it(`should answer ${path} of the chain with the same item`, async () => {
      const answer = await request(app).post(path).send(body).expect(200);
      expect(answer.body).to.deep.include({ is_valid: false, validation_errors: [TOO_DEEP] });
    });
  }

  it('should refuse a concept whose expanded structure is too large before anything expands it', async () => {
    const answer = await request(app)
      .post('/v1/build/inputs')
      .send({ files: [{ content: wideBundle() }], pipe_ref: 'wide.make', format: 'json' })
      .expect(200);
    expect(answer.body).to.deep.include({ is_valid: false, validation_errors: [TOO_WIDE] });
    const run = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [wideBundle()], inputs: { w: {} } })
      .expect(422);
    expect(run.body.validation_errors).to.deep.equal([TOO_WIDE]);
    await expectHealthy(app);
  });

  it('should still run a chain at the limit', async () => {
    const answer = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [chainBundle(32)], inputs: { name: 'Ada' } })
      .expect(200);
    expect(answer.body).to.include({ state: 'COMPLETED' });
  });
});
