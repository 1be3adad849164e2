/**
 * Multi-file signature reconciliation (docs/pipes.md#pipesignature, an exception to docs/namespaces.md#conflicts): a
 * domain may span
 * files, and a contract-only signature and a concrete pipe of the same code in one domain are one pipe — the concrete
 * one — when their contracts (`inputs` and `output`, as written) match, in either load order.
 */
import type { PipeBlueprint } from '../parse/pipe-blueprints.js';

/**
 * Whether two pipes of one code declare the same contract: the same input names with the same concept specs, and the
 * same output spec (compared as written, surrounding whitespace aside).
 * @param left - a pipe blueprint
 * @param right - another pipe blueprint
 */
export function sameContract(left: PipeBlueprint, right: PipeBlueprint): boolean {
  const inputs = (pipe: PipeBlueprint) =>
    Object.entries(pipe.inputs ?? {})
      .map(([name, spec]) => `${name}=${spec.trim()}`)
      .sort()
      .join('\n');
  return left.output.trim() === right.output.trim() && inputs(left) === inputs(right);
}

/**
 * Whether a later declaration of a pipe code reconciles with an earlier one: exactly one of them is a signature and
 * their contracts match.
 * @param earlier - the first declaration
 * @param later - the other declaration
 */
export function reconciles(earlier: PipeBlueprint, later: PipeBlueprint): boolean {
  return (earlier.type === 'PipeSignature') !== (later.type === 'PipeSignature') && sameContract(earlier, later);
}
