/**
 * Regression of issue 29, finding 8 (event-loop stalls in direct mode): a 5,000-step PipeSequence stalled `/health`
 * for 1.9 s. Its steps do no I/O of their own (a straight-line template renders on the calling thread, mock inference
 * answers at once), so the whole run was one chain of microtasks: nothing else, not `/health`, not the client's
 * disconnect, ran until its last step. Each pipe now starts on a turn of the event loop of its own (the pipe router;
 * docs/isolation.md#runs).
 *
 * The test watches the mechanism, not the clock: a renderer counts the renders made without the event loop turning
 * in between (each render schedules a reset on the next turn), and `/health` is asked once the run is under way.
 */
import { expect } from 'chai';
import request from 'supertest';
import { inThreadTemplateRenderer, type TemplateRenderer } from '../../shared/runtime/index.js';
import { buildTestApp } from '../helpers/test-app.js';

const STEPS = 400;

/** A sequence of {@link STEPS} PipeCompose steps, each rendering one straight-line template. */
function sequenceBundle(steps: number): string {
  const list = Array.from({ length: steps }, (_, index) => `  { pipe = "echo", result = "r${index}" },`).join('\n');
  return `domain = "long_sequence"
main_pipe = "main"

[pipe.main]
type = "PipeSequence"
description = "Echo the name, many times"
inputs = { name = "Text" }
output = "Text"
steps = [
${list}
]

[pipe.echo]
type = "PipeCompose"
description = "Echo the name"
inputs = { name = "Text" }
output = "Text"
template = "Hello $name"
`;
}

/** A renderer that counts renders, and the most made within one turn of the event loop. */
class TurnCountingRenderer implements TemplateRenderer {
  renders = 0;
  mostInOneTurn = 0;
  private inThisTurn = 0;
  private resetScheduled = false;
  private firstRender: (() => void) | undefined;
  /** Resolves at the first render: the run is under way. */
  readonly started = new Promise<void>((resolve) => {
    this.firstRender = resolve;
  });

  render: TemplateRenderer['render'] = (template, model, options) => {
    this.renders += 1;
    this.inThisTurn += 1;
    this.mostInOneTurn = Math.max(this.mostInOneTurn, this.inThisTurn);
    if (!this.resetScheduled) {
      this.resetScheduled = true;
      setImmediate(() => {
        this.inThisTurn = 0;
        this.resetScheduled = false;
      });
    }
    this.firstRender?.();
    return inThreadTemplateRenderer.render(template, model, options);
  };
}

describe('regression: a long sequence yields to the event loop between its steps (issue 29, finding 8)', function () {
  this.timeout(60000);

  it('should render each step on a turn of its own and answer /health while the run goes on', async () => {
    const renderer = new TurnCountingRenderer();
    const app = buildTestApp({}, undefined, renderer);
    const run = request(app)
      .post('/v1/execute')
      .send({ mthds_contents: [sequenceBundle(STEPS)], inputs: { name: 'Ada' } })
      .then((answer) => answer);
    await renderer.started;
    const health = await request(app).get('/health').expect(200);
    const rendersWhenHealthAnswered = renderer.renders;
    const answer = await run;

    expect(health.body).to.deep.equal({ status: 'ok', message: 'MTHDS runner is running' });
    expect(answer.status).to.equal(200);
    expect(answer.body).to.include({ state: 'COMPLETED' });
    expect(answer.body.main_stuff_name).to.equal(`r${STEPS - 1}`);
    expect(answer.body.pipe_output.working_memory.root[`r${STEPS - 1}`].content).to.deep.equal({ text: 'Hello Ada' });
    expect(renderer.renders).to.equal(STEPS);
    expect(renderer.mostInOneTurn).to.equal(1);
    expect(rendersWhenHealthAnswered).to.be.below(STEPS);
  });
});
