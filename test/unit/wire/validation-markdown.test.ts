import { expect } from 'chai';
import { invalidMarkdown } from '../../../shared/wire/validation-markdown.js';

describe('invalidMarkdown (docs/api.md#rendered-markdown)', () => {
  it('should write each item with its location, its details and its suggested fix, on one line each', () => {
    const markdown = invalidMarkdown({
      validation_errors: [
        {
          category: 'pipe_validation',
          message: "Pipe 'a': a <script> tag\nover two lines.",
          error_type: 'missing_input_variable',
          source: 'a.mthds',
          pipe_code: 'a',
          domain_code: 'd',
          field_path: 'pipe.a.prompt',
          variable_names: ['x', 'y'],
          suggested_fix: {
            fix_code: 'add_input',
            description: 'Declare `x` as an input',
            safety: 'safe',
            ops: [],
          },
        },
        {
          category: 'blueprint_validation',
          message: 'TOML syntax error (line 1, column 2): expected a value',
        },
        {
          category: 'pipe_validation',
          message: 'Concept missing.',
          concept_code: 'Thing',
          missing_concept_code: 'Other',
          declared_concepts: ['d.Thing'],
        },
      ],
    });
    expect(markdown).to.equal(
      [
        '# Validation failed',
        '',
        '3 errors found by static validation; the method cannot run until they are fixed.',
        '',
        '## Errors',
        '',
        '### 1. `missing_input_variable` (pipe_validation)',
        '',
        "Pipe 'a': a \\<script> tag over two lines.",
        '',
        '- Where: file `a.mthds`, pipe `d.a`, field `pipe.a.prompt`',
        '- Variables: `x`, `y`',
        '- Suggested fix (safe): Declare `x` as an input',
        '',
        '### 2. blueprint_validation',
        '',
        'TOML syntax error (line 1, column 2): expected a value',
        '',
        '### 3. pipe_validation',
        '',
        'Concept missing.',
        '',
        '- Where: concept `Thing`',
        '- Unresolved concept: `Other`',
        '- Declared concepts: `d.Thing`',
        '',
      ].join('\n'),
    );
  });
});
