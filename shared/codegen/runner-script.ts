/**
 * The runner script of `POST /v1/build/runner` (spec §4.10; docs/codegen.md#post-v1buildrunner): a Python script
 * running one pipe
 * through Pipelex, its inputs spelled as `{concept, content}` with placeholder contents built from the
 * `python-structures` classes it imports from `structures/structures.py`. A list output is read with
 * `main_stuff_as_items(item_type=…)`, a single one with `main_stuff_as(content_type=…)`. An input declared optional
 * (`X?`, docs/language.md#optionality-presence-markers-and-absences) is spelled out too, under a comment saying it may
 * be left out.
 */
import type { Library, Pipe } from '../mthds/index.js';
import { outputConcept } from './output-representation.js';
import { placeholderContent, pythonConstructor, pythonRepeated } from './placeholder.js';
import type { TypeSet } from './type-model.js';

/**
 * Generate the script.
 * @param library - the closure's library
 * @param types - its type model (the `python-structures` class names)
 * @param pipe - the pipe to run
 * @returns Python 3 source (`python3 -m py_compile` clean)
 * @throws ValidationError (422) when the pipe's output has no determinable shape
 */
export function runnerScript(library: Library, types: TypeSet, pipe: Pipe): string {
  const used = new Set<string>();
  const output = outputConcept(library, pipe);
  const outputClass = types.nameOf(output.ref);
  used.add(outputClass);
  const inputLines = pipe.inputs.flatMap((input) => {
    const concept = library.resolveConcept(input.conceptRef, pipe.domain_code);
    const expression = pythonConstructor(types, concept.ref, placeholderContent(types, concept.ref), used);
    return [
      ...(input.presence === 'optional'
        ? [`            # optional (${input.raw}?): leave it out to run without it`]
        : []),
      `            ${JSON.stringify(input.name)}: {`,
      `                "concept": ${JSON.stringify(concept.ref)},`,
      `                "content": ${pythonRepeated(input.multiplicity, expression)},`,
      '            },',
    ];
  });
  const isList = pipe.output.multiplicity !== 'single';
  const returnType = isList ? `list[${outputClass}]` : outputClass;
  const result = isList
    ? `pipe_output.main_stuff_as_items(item_type=${outputClass})`
    : `pipe_output.main_stuff_as(content_type=${outputClass})`;
  const functionName = `run_${pipe.code}`;
  return [
    `# Runs the pipe ${pipe.ref} with placeholder inputs: replace them with yours.`,
    '# The classes come from the python-structures projection written under structures/.',
    '',
    'import asyncio',
    '',
    'from pipelex.pipelex import Pipelex',
    'from pipelex.pipeline.execute import execute_pipeline',
    '',
    `from structures.structures import ${[...used].sort().join(', ')}`,
    '',
    '',
    `async def ${functionName}() -> ${returnType}:`,
    '    pipe_output = await execute_pipeline(',
    `        pipe_code=${JSON.stringify(pipe.ref)},`,
    ...(inputLines.length > 0 ? ['        inputs={', ...inputLines, '        },'] : []),
    '    )',
    `    return ${result}`,
    '',
    '',
    'if __name__ == "__main__":',
    '    Pipelex.make()',
    `    result = asyncio.run(${functionName}())`,
    '    print(result)',
    '',
  ].join('\n');
}
