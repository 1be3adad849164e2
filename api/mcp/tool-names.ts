/**
 * The names of the method tools (docs/mcp.md#method-tools): `<method id>_v<version>`, e.g. `mt_Q2hsb2UgYW5kIFpv_v3`.
 * A method id is unique in the deployment and never reused, and made of MCP's name characters (`mt_` and base64url),
 * so the name is unique, stable across renames, at most 31 characters (MCP allows 64 in the strictest clients), and
 * read back by taking its last `_v<n>` off. The generic tools are named `mthds_…`, which no method id starts with.
 */

/** A method version a tool name stands for. */
export interface MethodToolRef {
  methodId: string;
  version: number;
}

const METHOD_TOOL = /^(mt_[A-Za-z0-9_-]{1,40})_v([1-9][0-9]{0,8})$/;

/**
 * The tool name of a published method version.
 * @param ref - the method's id and the version's number
 */
export function methodToolName(ref: MethodToolRef): string {
  return `${ref.methodId}_v${ref.version}`;
}

/**
 * The method version a tool name stands for.
 * @param name - a tool name, as a client sent it
 * @returns the reference, or undefined for a name no method tool has
 */
export function parseMethodToolName(name: string): MethodToolRef | undefined {
  const match = METHOD_TOOL.exec(name);
  if (!match) return undefined;
  return { methodId: match[1]!, version: Number(match[2]) };
}
