/**
 * PipeCondition through the runtime API (docs/runtime.md#pipecondition): Python-style rendering of the expression,
 * trimming,
 * outcomes and `default_outcome`, the `fail` and `continue` outcomes, `add_alias_from_expression_to`.
 */
import { expect } from 'chai';
import { PipeConditionError } from '../../../../shared/errors/index.js';
import { controllersLibrary, ticketInputs } from '../../../helpers/controllers-bundle.js';
import { describeOnBothPaths, memoryView, runFailure, runPipe, text } from '../../../helpers/runtime-run.js';

describeOnBothPaths('PipeCondition', () => {
  const library = controllersLibrary();

  it('should match the outcome key True of a boolean expression rendered Python-style', async () => {
    const ticket = { title: 'go', urgent: true };
    const view = memoryView((await runPipe(library, 'route_urgent', ticketInputs(ticket))).memory);
    expect(view).to.deep.equal({
      main: 'main_stuff',
      aliases: {},
      root: {
        ticket: { name: 'ticket', concept: 'ctl.Ticket', content: ticket, code: 's1' },
        main_stuff: { name: 'text', concept: 'native.Text', content: text('URGENT: go'), code: 's2' },
      },
    });
  });

  it('should match the outcome key False', async () => {
    const view = memoryView(
      (await runPipe(library, 'route_urgent', ticketInputs({ title: 'stop', urgent: false }))).memory,
    );
    expect(view.root['main_stuff']).to.deep.equal({
      name: 'text',
      concept: 'native.Text',
      content: text('calm: stop'),
      code: 's2',
    });
  });

  it('should trim an expression_template and take its outcome', async () => {
    const inputs = ticketInputs({ title: 'go', urgent: false, owner: 'alice' });
    const view = memoryView((await runPipe(library, 'route_owner', inputs)).memory);
    expect(view.root['main_stuff']!.content).to.deep.equal(text('URGENT: go'));
  });

  it('should take default_outcome when no key matches', async () => {
    const inputs = ticketInputs({ title: 'go', urgent: false, owner: 'bob' });
    const view = memoryView((await runPipe(library, 'route_owner', inputs)).memory);
    expect(view.root['main_stuff']!.content).to.deep.equal(text('calm: go'));
  });

  it('should fail on a None value, naming the pipe', async () => {
    const inputs = ticketInputs({ title: 'go', urgent: false, owner: null });
    const error = await runFailure(runPipe(library, 'route_owner', inputs));
    expect(error).to.be.instanceOf(PipeConditionError);
    expect(error.message).to.equal("PipeCondition 'route_owner': the expression returned no result (rendered 'None').");
  });

  it('should fail on the fail outcome, naming the pipe, the value and the outcomes', async () => {
    const error = await runFailure(runPipe(library, 'route_strict', ticketInputs({ title: 'unknown', urgent: false })));
    expect(error).to.be.instanceOf(PipeConditionError);
    expect(error.message).to.equal(
      "PipeCondition 'route_strict' failed with outcome: fail. Evaluated expression: 'unknown' (outcomes: known).",
    );
  });

  it('should store the evaluated value as a Text under add_alias_from_expression_to', async () => {
    const view = memoryView(
      (await runPipe(library, 'route_noted', ticketInputs({ title: 'go', urgent: false }))).memory,
    );
    expect(Object.keys(view.root)).to.deep.equal(['ticket', 'decision', 'main_stuff']);
    expect(view.root['decision']).to.deep.equal({
      name: 'decision',
      concept: 'native.Text',
      content: text('go'),
      code: 's2',
    });
    expect(view.root['main_stuff']).to.deep.equal({
      name: 'text',
      concept: 'native.Text',
      content: text('URGENT: go'),
      code: 's3',
    });
  });

  it('should run the matched pipe on the same memory when a sequence step routes', async () => {
    const view = memoryView((await runPipe(library, 'maybe', ticketInputs({ title: 'go', urgent: false }))).memory);
    expect(view.main).to.equal('decided');
    expect(view.aliases).to.deep.equal({ main_stuff: 'decided' });
    expect(Object.keys(view.root)).to.deep.equal(['ticket', 'calm', 'decided']);
    expect(view.root['calm']).to.deep.equal({
      name: 'calm',
      concept: 'native.Text',
      content: text('calm: go'),
      code: 's2',
    });
    expect(view.root['decided']).to.deep.equal({
      name: 'decided',
      concept: 'native.Text',
      content: text('URGENT: go'),
      code: 's3',
    });
  });

  it('should record continue as a declared absence under the step result, which ends the sequence absent', async () => {
    const { memory } = await runPipe(library, 'maybe', ticketInputs({ title: 'stop', urgent: false }));
    const view = memoryView(memory);
    expect(view.main).to.equal(null);
    expect(view.aliases).to.deep.equal({});
    expect(Object.keys(view.root)).to.deep.equal(['ticket', 'calm']);
    expect(view.root['calm']!.content).to.deep.equal(text('calm: stop'));
    expect(memory.mainAbsence()).to.deep.equal({
      variableName: 'decided',
      kind: 'declared_absent',
      reason: "PipeCondition 'route_continue' took the 'continue' outcome (expression: 'stop')",
      producingPipe: 'route_continue',
      upstream: null,
    });
  });

  it('should leave the inputs and a declared absence as main output when a top-level condition continues', async () => {
    const ticket = { title: 'stop', urgent: false };
    const outcome = await runPipe(library, 'route_continue', ticketInputs(ticket));
    expect(memoryView(outcome.memory)).to.deep.equal({
      main: null,
      aliases: {},
      root: { ticket: { name: 'ticket', concept: 'ctl.Ticket', content: ticket, code: 's1' } },
    });
    expect(outcome.memory.mainStuff()).to.equal(undefined);
    expect(outcome.memory.mainAbsence()).to.include({ variableName: 'main_stuff', kind: 'declared_absent' });
  });
});
