/**
 * Controllers over HTTP (issue #4; docs/runtime.md#controllers, docs/runtime.md): what only the route shows. One run
 * per controller
 * checks the wire shape of the result (`main_stuff_name`, `pipe_output.working_memory` stuffs and aliases, timestamps,
 * request `output_name`), and each runtime failure checks its problem document (status, `error_type`, `detail`).
 * The controller semantics themselves (exact working memory, batch bound, memory copies…) are unit-tested through
 * `runPipeline` in test/unit/runtime/controllers/ and test/unit/runtime/operators/.
 */
import { expect } from 'chai';
import request from 'supertest';
import { CONTROLLERS_BUNDLE, ticketInputs } from '../helpers/controllers-bundle.js';
import { buildTestApp } from '../helpers/test-app.js';

/** A stuff code of the production id source: 8 characters of its alphabet. */
const STUFF_CODE = /^[2-9A-HJ-NP-Za-km-z]{8}$/;

const TEXT_CONCEPT = {
  code: 'Text',
  domain_code: 'native',
  description: 'A text',
  structure_class_name: 'TextContent',
  refines: null,
};

interface WireStuff {
  stuff_code: string;
  stuff_name: string | null;
  concept: { code: string; domain_code: string; description: string; structure_class_name: string };
  content: unknown;
}

interface RunBody {
  pipeline_run_id: string;
  state: string;
  pipeline_state: string;
  created_at: string;
  finished_at: string;
  main_stuff_name: string | null;
  pipe_output: {
    pipeline_run_id: string;
    working_memory: {
      root: Record<string, WireStuff>;
      aliases: Record<string, string>;
      absences?: Record<string, unknown>;
    };
    tokens_usages: unknown[];
  };
}

describe('controllers over POST /v1/execute', () => {
  const app = buildTestApp();

  /** A COMPLETED run of a controllers-bundle pipe, its envelope checked. */
  async function run(pipe: string, inputs: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [CONTROLLERS_BUNDLE], pipe_code: pipe, inputs, ...extra });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const body = response.body as RunBody;
    expect(body.state).to.equal('COMPLETED');
    expect(body.pipeline_state).to.equal('COMPLETED');
    expect(body.pipe_output.pipeline_run_id).to.equal(body.pipeline_run_id);
    expect(Date.parse(body.finished_at)).to.be.at.least(Date.parse(body.created_at));
    expect(new Date(body.created_at).toISOString()).to.equal(body.created_at);
    for (const stuff of Object.values(body.pipe_output.working_memory.root))
      expect(stuff.stuff_code).to.match(STUFF_CODE);
    return body;
  }

  /** A failed run of a controllers-bundle pipe: its problem document, with no stack trace in it. */
  async function fail(pipe: string, inputs: Record<string, unknown>, status: number): Promise<Record<string, unknown>> {
    const response = await request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [CONTROLLERS_BUNDLE], pipe_code: pipe, inputs })
      .expect(status);
    expect(response.headers['content-type']).to.equal('application/problem+json');
    expect(JSON.stringify(response.body)).to.not.match(/\bat [\w.<>]+ \(|node_modules/);
    return response.body as Record<string, unknown>;
  }

  describe('PipeSequence', () => {
    it('should answer the step results and the output under the request output_name (same stuff) on the wire', async () => {
      const body = await run('seq', { word: 'hi' }, { output_name: 'final' });
      const { root, aliases } = body.pipe_output.working_memory;
      expect(body.main_stuff_name).to.equal('final');
      expect(aliases).to.deep.equal({ main_stuff: 'final' });
      expect(Object.keys(root)).to.deep.equal(['word', 'wrapped', 'shouted', 'final']);
      expect(root['word']).to.deep.equal({
        stuff_code: root['word']!.stuff_code,
        stuff_name: 'word',
        concept: TEXT_CONCEPT,
        content: { text: 'hi' },
      });
      expect(root['final']).to.deep.equal({
        stuff_code: root['shouted']!.stuff_code,
        stuff_name: 'shouted',
        concept: {
          code: 'Shout',
          domain_code: 'ctl',
          description: 'A shouted text',
          structure_class_name: 'TextContent',
          refines: 'native.Text',
        },
        content: { text: '[HI]!' },
      });
      expect(root['final']).to.deep.equal(root['shouted']);
      expect(new Set(Object.values(root).map((stuff) => stuff.stuff_code)).size).to.equal(3);
      expect(body.pipe_output.tokens_usages).to.deep.equal([]);
    });
  });

  describe('PipeParallel', () => {
    const inputs = { word: 'hi', wrapped: '[pre]' };

    it('should answer each branch output and the combined output at root.main_stuff with no alias on the wire', async () => {
      const body = await run('par_each', inputs);
      const { root, aliases } = body.pipe_output.working_memory;
      expect(body.main_stuff_name).to.equal('main_stuff');
      expect(aliases).to.deep.equal({});
      expect(Object.keys(root)).to.deep.equal(['word', 'wrapped', 'left', 'right', 'main_stuff']);
      expect(root['main_stuff']).to.deep.equal({
        stuff_code: root['main_stuff']!.stuff_code,
        stuff_name: 'anything',
        concept: {
          code: 'Anything',
          domain_code: 'native',
          description: 'Any concept',
          structure_class_name: 'AnythingContent',
          refines: null,
        },
        content: { left: { text: '[hi]' }, right: { text: '[PRE]!' } },
      });
    });

    it('should refuse branch contents that do not match the combined_output fields with a clean 500', async () => {
      const problem = await fail('par_flat', inputs, 500);
      expect(problem).to.include({
        status: 500,
        error_type: 'PipeOutputValidationError',
        error_domain: 'runtime',
        detail:
          "PipeParallel 'par_flat': the branch results do not match combined_output ctl.FlatPair: /left must be string; /right must be string.",
      });
    });
  });

  describe('PipeCondition', () => {
    it('should answer the routed output, next to the structured input with its absent optional field null, on the wire', async () => {
      const body = await run('route_urgent', ticketInputs({ title: 'go', urgent: true }));
      const { root } = body.pipe_output.working_memory;
      expect(body.main_stuff_name).to.equal('main_stuff');
      expect(root['ticket']).to.deep.equal({
        stuff_code: root['ticket']!.stuff_code,
        stuff_name: 'ticket',
        concept: {
          code: 'Ticket',
          domain_code: 'ctl',
          description: 'A ticket',
          structure_class_name: 'Ticket',
          refines: null,
        },
        content: { title: 'go', urgent: true, owner: null },
      });
      expect(root['main_stuff']).to.deep.equal({
        stuff_code: root['main_stuff']!.stuff_code,
        stuff_name: 'text',
        concept: TEXT_CONCEPT,
        content: { text: 'URGENT: go' },
      });
    });

    it('should complete with an absent main output when a top-level condition continues', async () => {
      const body = await run('route_continue', ticketInputs({ title: 'stop', urgent: false }));
      const absence = {
        variable_name: 'main_stuff',
        kind: 'declared_absent',
        reason: "PipeCondition 'route_continue' took the 'continue' outcome (expression: 'stop')",
        producing_pipe: 'route_continue',
        upstream: null,
      };
      expect(body.state).to.equal('COMPLETED');
      expect(body.main_stuff_name).to.equal('main_stuff');
      expect(body).to.deep.include({ absent: true, absence });
      expect(body.pipe_output.working_memory.aliases).to.deep.equal({});
      expect(Object.keys(body.pipe_output.working_memory.root)).to.deep.equal(['ticket']);
      expect(body.pipe_output.working_memory.absences).to.deep.equal({ main_stuff: absence });
    });

    it('should fail cleanly on a None value, naming the pipe', async () => {
      const problem = await fail('route_owner', ticketInputs({ title: 'go', urgent: false, owner: null }), 500);
      expect(problem).to.include({
        status: 500,
        title: 'Pipe condition',
        error_type: 'PipeConditionError',
        error_domain: 'runtime',
        detail: "PipeCondition 'route_owner': the expression returned no result (rendered 'None').",
        instance: '/v1/execute',
      });
    });

    it('should fail cleanly on the fail outcome, naming the pipe, the value and the outcomes', async () => {
      const problem = await fail('route_strict', ticketInputs({ title: 'unknown', urgent: false }), 500);
      expect(problem).to.include({
        status: 500,
        error_type: 'PipeConditionError',
        error_domain: 'runtime',
        detail:
          "PipeCondition 'route_strict' failed with outcome: fail. Evaluated expression: 'unknown' (outcomes: known).",
      });
      expect(problem).to.not.have.property('retryable');
    });
  });

  describe('PipeBatch', () => {
    it('should answer the collected list as {items} of the item concept on the wire', async () => {
      const body = await run('batch_wrap', { words: ['a', 'b'] });
      const { root } = body.pipe_output.working_memory;
      expect(body.main_stuff_name).to.equal('main_stuff');
      expect(root['words']!.content).to.deep.equal({ items: [{ text: 'a' }, { text: 'b' }] });
      expect(root['main_stuff']).to.deep.equal({
        stuff_code: root['main_stuff']!.stuff_code,
        stuff_name: 'text',
        concept: TEXT_CONCEPT,
        content: { items: [{ text: '[a]' }, { text: '[b]' }] },
      });
    });
  });
});
