/**
 * Generators of the largest legal requests, for the responsiveness tests (docs/isolation.md#diagnostics-pool): a
 * bundle of many pipes (a PipeSequence chaining PipeLLM and PipeCompose steps) and ~1 MiB `.mthds` texts.
 */

/**
 * A valid bundle of `pipes` pipes: `pipes - 1` steps alternating PipeLLM and PipeCompose, chained by one
 * PipeSequence (the `main_pipe`), each step reading the previous step's result.
 * @param pipes - pipes in the bundle, at least 2
 * @param domain - the bundle's domain code
 * @returns the `.mthds` text
 */
export function chainBundle(pipes: number, domain = 'load_chain'): string {
  const steps = pipes - 1;
  const lines = [
    `domain = "${domain}"`,
    'description = "A long chain of steps, for load tests"',
    'main_pipe = "run_chain"',
    '',
  ];
  const stepRefs: string[] = [];
  for (let index = 0; index < steps; index += 1) {
    const input = index === 0 ? 'seed' : `text_${index - 1}`;
    stepRefs.push(`  { pipe = "step_${index}", result = "text_${index}" },`);
    lines.push(`[pipe.step_${index}]`);
    if (index % 2 === 0) {
      lines.push(
        'type = "PipeLLM"',
        `description = "Rewrite the text, step ${index}"`,
        `inputs = { ${input} = "Text" }`,
        'output = "Text"',
        `prompt = "Rewrite this text in other words: $${input}"`,
        '',
      );
    } else {
      lines.push(
        'type = "PipeCompose"',
        `description = "Frame the text, step ${index}"`,
        `inputs = { ${input} = "Text" }`,
        'output = "Text"',
        `template = "Step ${index}: $${input}"`,
        '',
      );
    }
  }
  lines.push(
    '[pipe.run_chain]',
    'type = "PipeSequence"',
    'description = "Run every step in order"',
    'inputs = { seed = "Text" }',
    `output = "Text"`,
    'steps = [',
    ...stepRefs,
    ']',
    '',
  );
  return lines.join('\n');
}

/**
 * A valid bundle of `pipes` pipes shaped like a large real method, for the validate scaling benchmark: a structured
 * concept; one PipeSequence (the `main_pipe`) of steps alternating PipeLLM and PipeCompose, each step reading the
 * seed and the two previous results, truncated so texts keep their size (every step renders against a working memory
 * that grew by one stuff per step); and about a quarter of the pipes independent of the sequence (PipeLLM with
 * structured output and PipeCompose
 * reading its fields). Every template names the domain, so bundles of different domains share no template.
 * @param pipes - pipes in the bundle, at least 2
 * @param domain - the bundle's domain code
 * @returns the `.mthds` text
 */
export function scalingBundle(pipes: number, domain = 'scaling'): string {
  const independent = Math.floor((pipes - 1) / 4);
  const steps = pipes - 1 - independent;
  const lines = [
    `domain = "${domain}"`,
    'description = "A long chain of steps plus independent pipes, for the validate scaling benchmark"',
    'main_pipe = "run_chain"',
    '',
    '[concept.Summary]',
    'description = "A short summary of a topic"',
    '',
    '[concept.Summary.structure]',
    'title = { type = "text", description = "The title", required = true }',
    'points = { type = "list", item_type = "text", description = "The key points", required = true }',
    '',
  ];
  const result = (index: number) => (index < 0 ? 'seed' : `text_${index}`);
  const stepRefs: string[] = [];
  for (let index = 0; index < steps; index += 1) {
    const reads = [...new Set(['seed', result(index - 2), result(index - 1)])];
    const inputs = reads.map((name) => `${name} = "Text"`).join(', ');
    const body = reads.map((name) => `{{ ${name}|truncate(60) }}`).join(' / ');
    stepRefs.push(`  { pipe = "step_${index}", result = "${result(index)}" },`);
    lines.push(`[pipe.step_${index}]`);
    lines.push(
      ...(index % 2 === 0
        ? ['type = "PipeLLM"', `description = "Rewrite, step ${index}"`, `inputs = { ${inputs} }`, 'output = "Text"']
        : [
            'type = "PipeCompose"',
            `description = "Frame, step ${index}"`,
            `inputs = { ${inputs} }`,
            'output = "Text"',
          ]),
      index % 2 === 0
        ? `prompt = "Rewrite in ${domain} words: ${body}"`
        : `template = "${domain} step ${index}: ${body}"`,
      '',
    );
  }
  for (let index = 0; index < independent; index += 1) {
    lines.push(`[pipe.side_${index}]`);
    lines.push(
      ...(index % 2 === 0
        ? [
            'type = "PipeLLM"',
            `description = "Summarise topic ${index}"`,
            `inputs = { topic_${index} = "Text" }`,
            'output = "Summary"',
            `prompt = "Summarise for ${domain}: $topic_${index}"`,
          ]
        : [
            'type = "PipeCompose"',
            `description = "Present summary ${index}"`,
            `inputs = { summary_${index} = "Summary" }`,
            'output = "Text"',
            `template = "${domain} {{ summary_${index}.title }}: {{ summary_${index}.points|join(', ') }}"`,
          ]),
      '',
    );
  }
  lines.push(
    '[pipe.run_chain]',
    'type = "PipeSequence"',
    'description = "Run every step in order"',
    'inputs = { seed = "Text" }',
    'output = "Text"',
    'steps = [',
    ...stepRefs,
    ']',
    '',
  );
  return lines.join('\n');
}

/**
 * A valid bundle padded to about `kib` KiB: one PipeLLM whose description is long, plus concepts with long
 * descriptions of about 2 KiB each (large text, little structure: 1,000 KiB hold about 520 concepts, within what
 * `/v1/format` lays out, docs/limits.md#formatting).
 * @param kib - target size in KiB of UTF-8
 * @param domain - the bundle's domain code
 * @returns the `.mthds` text, at most `kib` KiB
 */
export function paddedBundle(kib: number, domain = 'padded'): string {
  const head = [
    `domain = "${domain}"`,
    'description = "A large bundle, for load tests"',
    'main_pipe = "say"',
    '',
    '[pipe.say]',
    'type = "PipeLLM"',
    'description = "Say something"',
    'inputs = { name = "Text" }',
    'output = "Text"',
    'prompt = "Say hello to $name."',
    '',
  ];
  const lines = [...head, '[concept]'];
  const filler = 'lorem ipsum dolor sit amet '.repeat(72);
  const budget = kib * 1024 - 64;
  let size = lines.join('\n').length;
  for (let index = 0; ; index += 1) {
    const line = `Concept${index} = "${filler}${index}"`;
    if (size + line.length + 1 > budget) break;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}
