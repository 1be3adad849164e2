/**
 * Turns ajv's `allErrors` output for a union (`anyOf`/`oneOf`) into the errors of the alternative the value was meant
 * to be, so an editor shows one problem where the author made one.
 *
 * ajv appends the errors of each alternative in order, then the union's own error; so the errors just before a union
 * error that lie at or under its `instancePath` are its alternatives' errors. Alternatives written inline mark their
 * errors with `<union schemaPath>/<index>/…`; referenced ones (`$ref`) are the runs between those marks.
 * - When every alternative failed only on the value's type, one error remains: `must be object or string`.
 * - Otherwise the type mismatches are dropped and the alternative whose shape fits best is kept: the fewest
 *   `required`/`additionalProperties` errors on the value itself, then the fewest errors.
 *
 * @see docs/api.md#post-v1lint (schema diagnostics)
 */
import type { SchemaError } from './bundle-schema.js';

const UNION = new Set(['anyOf', 'oneOf']);

function isUnder(error: SchemaError, path: string): boolean {
  return error.instancePath === path || error.instancePath.startsWith(`${path}/`);
}

/** Splits the alternatives' errors into runs, one per alternative, using the inline alternatives' marks. */
function alternatives(union: SchemaError, branchErrors: SchemaError[]): SchemaError[][] {
  const mark = new RegExp(`^${union.schemaPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(\\d+)/`);
  const runs: { branch: string; errors: SchemaError[] }[] = [];
  for (const error of branchErrors) {
    const branch = mark.exec(error.schemaPath)?.[1] ?? 'referenced';
    const last = runs[runs.length - 1];
    if (last && last.branch === branch) last.errors.push(error);
    else runs.push({ branch, errors: [error] });
  }
  return runs.map((run) => run.errors);
}

function isTypeMismatchAt(error: SchemaError, path: string): boolean {
  return error.keyword === 'type' && error.instancePath === path;
}

function misfit(errors: SchemaError[], path: string): number {
  return errors.filter(
    (error) =>
      error.instancePath === path && (error.keyword === 'required' || error.keyword === 'additionalProperties'),
  ).length;
}

function reduceUnion(union: SchemaError, branchErrors: SchemaError[]): SchemaError[] {
  const path = union.instancePath;
  if (branchErrors.every((error) => isTypeMismatchAt(error, path))) {
    const types = [...new Set(branchErrors.map((error) => String(error.params['type'])))];
    return [{ ...union, keyword: 'type', params: { type: types.join(',') }, message: `must be ${types.join(' or ')}` }];
  }
  const candidates = alternatives(union, branchErrors)
    .map((errors) => errors.filter((error) => !isTypeMismatchAt(error, path)))
    .filter((errors) => errors.length > 0);
  const best = candidates.reduce((chosen, errors) => {
    const better = misfit(errors, path) - misfit(chosen, path) || errors.length - chosen.length;
    return better < 0 ? errors : chosen;
  });
  return best;
}

/**
 * Reduce a validator's errors.
 * @param errors - ajv errors in emission order (`allErrors: true`)
 * @returns the errors without union summaries, each union reduced to one alternative's errors
 */
export function reduceSchemaErrors(errors: readonly SchemaError[]): SchemaError[] {
  const kept: SchemaError[] = [];
  for (const error of errors) {
    if (!UNION.has(error.keyword)) {
      kept.push(error);
      continue;
    }
    let start = kept.length;
    while (start > 0 && isUnder(kept[start - 1]!, error.instancePath)) start -= 1;
    const branchErrors = kept.splice(start);
    kept.push(...(branchErrors.length > 0 ? reduceUnion(error, branchErrors) : [error]));
  }
  return kept;
}
