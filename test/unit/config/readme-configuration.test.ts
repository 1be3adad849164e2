import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'chai';
import { SETTING_VARIABLES } from '../../../shared/config/index.js';

/**
 * Variables README.md#configuration documents that `loadSettings` does not read: each is read where it is used.
 * A row may name them beside the table's own variables.
 */
const READ_ELSEWHERE = new Set([
  // provider credentials, read by the inference backends and substituted into the inference configuration
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'LINKUP_API_KEY',
  'LINKUP_BASE_URL',
  // read lazily, only when a callback signature is computed (spec §1.1)
  'COMPLETION_CALLBACK_SECRET',
  // the AWS SDK's default credential chain of the s3 storage backend
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  // the OpenTelemetry variables, read by shared/observability/tracing.ts and the SDK (docs/tracing.md)
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_SERVICE_NAME',
  'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT',
]);

interface ReadmeRow {
  /** Backticked names of the Variable column, in order; `*` is a wildcard (`STORAGE_RETENTION_*_HOURS`). */
  variables: string[];
  /** The Default column, as written. */
  defaults: string;
}

/** The rows of the table under README.md's `## Configuration` heading. */
function readmeRows(): ReadmeRow[] {
  const readme = readFileSync(path.join(process.cwd(), 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration\n'));
  const lines = section.slice(0, section.indexOf('\n## ', 1)).split('\n');
  return lines
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const cells = line.split(' | ');
      return {
        variables: [...(cells[0] ?? '').matchAll(/`([A-Z0-9_*]+)`/g)].map((match) => match[1] ?? ''),
        defaults: (cells.at(-1) ?? '').replace(/\s*\|$/, ''),
      };
    });
}

function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.replaceAll('*', '[A-Z0-9_]*')}$`);
}

const tableNames = SETTING_VARIABLES.map((variable) => variable.name);
const rows = readmeRows();
const readmeNames = rows.flatMap((row) => row.variables);

describe('README.md#configuration against the settings table', () => {
  it('should find the table and name each variable of the settings table once', () => {
    expect(rows.length).to.be.greaterThan(40);
    expect(new Set(tableNames).size).to.equal(tableNames.length);
  });

  it('should document every variable loadSettings reads', () => {
    const undocumented = tableNames.filter((name) => !readmeNames.some((entry) => wildcard(entry).test(name)));
    expect(undocumented).to.deep.equal([]);
  });

  it('should document only variables of the settings table, or variables read elsewhere', () => {
    const unknown = readmeNames.filter(
      (entry) => !READ_ELSEWHERE.has(entry) && !tableNames.some((name) => wildcard(entry).test(name)),
    );
    expect(unknown).to.deep.equal([]);
  });

  it("should give, as each variable's default, a value its schema reads as the unset default", () => {
    const byName = new Map(SETTING_VARIABLES.map((variable) => [variable.name, variable.schema]));
    const mismatches: string[] = [];
    let checked = 0;
    for (const row of rows) {
      const names = row.variables.filter((name) => !READ_ELSEWHERE.has(name));
      const defaults = row.defaults.split(/,\s+(?![^(]*\))/).map((written) => written.trim());
      names.forEach((name, index) => {
        const schema = byName.get(name);
        const written = defaults[index] ?? '';
        const unset = /^unset\b/.test(written) && names.length === defaults.length;
        const literal = /^`([^`]+)`(?:\s*\(.*\))?$/.exec(written)?.[1];
        // Not a value: a wildcard row, a default in words ("see there"), an expression or another variable's name.
        const isValue = unset || (literal !== undefined && !literal.includes('(') && !byName.has(literal));
        if (schema === undefined || !isValue) return;
        checked += 1;
        const expected = schema.parse(undefined);
        const agrees = unset
          ? expected === undefined || expected === ''
          : isDeepStrictEqual(
              schema.safeParse(literal?.startsWith('./') ? path.resolve(literal) : literal).data,
              expected,
            );
        if (!agrees) mismatches.push(`${name}: README says ${written}, the table gives ${JSON.stringify(expected)}`);
      });
    }
    expect(mismatches).to.deep.equal([]);
    expect(checked).to.be.greaterThan(60);
  });
});
