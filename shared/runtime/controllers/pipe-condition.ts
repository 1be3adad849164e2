/**
 * PipeCondition: render the expression, pick the outcome whose key equals it (else `default_outcome`), and run that
 * pipe on the same working memory (docs/runtime.md#pipecondition, docs/pipes.md#pipecondition). `fail` fails the run;
 * `continue` runs
 * nothing and resolves the output to a `declared_absent` absence
 * (docs/language.md#optionality-presence-markers-and-absences). Values render Python-style, so a boolean expression
 * gives `True` / `False`.
 *
 * Dry run (docs/runtime.md#pipecondition): the expression is not evaluated; every outcome pipe (special outcomes aside)
 * runs on the
 * same working memory, sorted by code, so all branches are exercised.
 *
 * Decisions (docs/runtime.md): the rendered value is trimmed; `add_alias_from_expression_to` stores the evaluated value
 * as a Text stuff under that name (the spec's reading, not the reference's alias quirk).
 */
import { PipeConditionError } from '../../errors/index.js';
import type { PipeConditionBlueprint } from '../../mthds/index.js';
import { renderJobTemplate } from '../job-template.js';
import type { PipeRunner } from '../pipe-job.js';
import { childStepPath } from '../step-path.js';

/**
 * Run a PipeCondition job.
 * @throws PipeConditionError for an empty or `None` expression, or the `fail` outcome; whatever the chosen pipe throws
 */
export const runPipeCondition: PipeRunner = async (job, environment) => {
  const blueprint = job.pipe.blueprint as PipeConditionBlueprint;
  const { library } = environment;
  if (environment.dryRun) {
    const outcomes = [...new Set([...Object.values(blueprint.outcomes), blueprint.default_outcome])]
      .filter((outcome) => outcome !== 'fail' && outcome !== 'continue')
      .sort();
    for (const outcome of outcomes) {
      await environment.runPipe({
        pipe: library.resolvePipe(outcome, job.pipe.domain_code),
        memory: job.memory,
        outputName: job.outputName,
        params: {
          ...job.params,
          outputMultiplicity: null,
          stepPath: childStepPath(job.params.stepPath, 'outcome', outcome),
        },
      });
    }
    return;
  }
  const template = blueprint.expression_template ?? `{{ ${blueprint.expression ?? ''} }}`;
  const value = (await renderJobTemplate(job, environment, template, { category: 'expression' })).text.trim();
  if (value === '' || value === 'None') {
    throw new PipeConditionError(
      `PipeCondition '${job.pipe.code}': the expression returned no result (rendered '${value}').`,
    );
  }
  if (blueprint.add_alias_from_expression_to) {
    job.memory.addNewStuff(blueprint.add_alias_from_expression_to, {
      stuffCode: environment.deps.ids.next(),
      stuffName: blueprint.add_alias_from_expression_to,
      concept: library.resolveConcept('native.Text'),
      content: { kind: 'item', item: { text: value } },
    });
  }
  const outcome = blueprint.outcomes[value] ?? blueprint.default_outcome;
  if (outcome === 'fail') {
    throw new PipeConditionError(
      `PipeCondition '${job.pipe.code}' failed with outcome: fail. Evaluated expression: '${value}' (outcomes: ${Object.keys(blueprint.outcomes).join(', ')}).`,
    );
  }
  if (outcome === 'continue') {
    job.memory.setAbsentMainStuff({
      variableName: job.outputName ?? 'main_stuff',
      kind: 'declared_absent',
      reason: `PipeCondition '${job.pipe.code}' took the 'continue' outcome (expression: '${value}')`,
      producingPipe: job.pipe.code,
      upstream: null,
    });
    return;
  }
  await environment.runPipe({
    pipe: library.resolvePipe(outcome, job.pipe.domain_code),
    memory: job.memory,
    outputName: job.outputName,
    params: {
      ...job.params,
      outputMultiplicity: null,
      stepPath: childStepPath(job.params.stepPath, 'outcome', outcome),
    },
  });
};
