/**
 * The method tools (docs/mcp.md#method-tools): one tool per published version of the caller's methods, named by
 * `tool-names.ts`, described by the method's bundle and main pipe, with the main pipe's input contract as its
 * `inputSchema` and its output contract inside its `outputSchema` — the schemas `pipe_io_contracts` gives
 * (docs/forms.md#io-contracts), from the verdict `POST /v1/validate` gives the version (`method_id` `<id>@<n>`).
 * A published version never changes, so its tool is computed once per process and kept.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { PublishedPosition, PublishedVersion } from '../../shared/database/index.js';
import { MthdsError } from '../../shared/errors/index.js';
import type { PipeIOContract, ValidReport } from '../../shared/wire/index.js';
import { catalogOwner } from '../method-catalog.js';
import type { Identity } from '../middleware/authenticate.js';
import { encodedJsonValue, rawJson } from './mcp-json.js';
import type { McpServices } from './mcp-services.js';
import { methodToolName } from './tool-names.js';

type Schema = Record<string, unknown>;

/** Method tools per page of `tools/list`. */
const TOOLS_PER_PAGE = 50;

/** Method tools kept per process (each a version's, which never changes). */
const KEPT_TOOLS = 1000;

/** The statuses of a call's run, as the output schemas list them. */
const RUN_STATUSES = ['PENDING', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED', 'TIMED_OUT'];

const CURSOR = z.object({ m: z.string().min(1).max(64), v: z.number().int().positive() });

/**
 * The cursor of the page after a position (of the method tools, and of the method sources' resources).
 * @param position - the last item of a page
 */
export function cursorOf(position: PublishedPosition): string {
  return Buffer.from(JSON.stringify({ m: position.methodId, v: position.version })).toString('base64url');
}

/**
 * The position a cursor names.
 * @param cursor - a `nextCursor` this endpoint gave
 * @returns the position, or undefined for a cursor it never gave
 */
export function positionOf(cursor: string): PublishedPosition | undefined {
  try {
    const parsed = CURSOR.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? { methodId: parsed.data.m, version: parsed.data.v } : undefined;
  } catch {
    return undefined;
  }
}

/** A schema with its `$defs` taken out, to be merged at the root of the tool's schema. */
function hoisted(schema: Schema, defs: Schema): Schema {
  const { $defs, ...rest } = schema;
  if ($defs && typeof $defs === 'object') Object.assign(defs, $defs);
  return rest;
}

/**
 * The `inputSchema` of a pipe's input contract: one property per input, the required ones those not optional.
 * @param contract - the pipe's contract
 */
function inputSchemaOf(contract: PipeIOContract): Tool['inputSchema'] {
  const defs: Schema = {};
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [name, input] of Object.entries(contract.inputs)) {
    properties[name] = hoisted(input.json_schema, defs);
    if (!input.optional) required.push(name);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

/**
 * The `outputSchema` of a pipe's output contract: the call's run id and status, and the output once completed.
 * @param contract - the pipe's contract
 */
function outputSchemaOf(contract: PipeIOContract): NonNullable<Tool['outputSchema']> {
  const defs: Schema = {};
  const output = hoisted(contract.output.json_schema, defs);
  return {
    type: 'object',
    properties: {
      pipeline_run_id: { type: 'string' },
      status: { type: 'string', enum: RUN_STATUSES },
      output: contract.output.optional ? { anyOf: [output, { type: 'object' }] } : output,
      error: { type: 'object' },
    },
    required: ['pipeline_run_id', 'status'],
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}

function pipeDescription(report: ValidReport): string | undefined {
  const ref = report.default_pipe_ref;
  if (!ref) return undefined;
  const pipes = report.bundle_blueprint['pipe'];
  const code = ref.slice(ref.lastIndexOf('.') + 1);
  const pipe = pipes && typeof pipes === 'object' ? (pipes as Record<string, unknown>)[code] : undefined;
  const description = pipe && typeof pipe === 'object' ? (pipe as Record<string, unknown>)['description'] : undefined;
  return typeof description === 'string' ? description : undefined;
}

/** The tools of published versions, computed once per process. */
export class MethodTools {
  private readonly kept = new Map<string, Tool>();

  /** @param services - the endpoint's services: the catalog and the validation of a version */
  constructor(private readonly services: McpServices) {}

  /**
   * A page of the caller's method tools.
   * @param identity - the caller
   * @param cursor - the page's cursor; undefined for the first
   * @returns the tools and the next page's cursor (undefined after the last); none without a catalog
   * @throws RangeError for a cursor this endpoint never gave
   */
  async page(identity: Identity, cursor: string | undefined): Promise<{ tools: Tool[]; nextCursor?: string }> {
    if (!this.services.catalog) return { tools: [] };
    const after = cursor === undefined ? undefined : positionOf(cursor);
    if (cursor !== undefined && after === undefined) throw new RangeError(`Unknown cursor '${cursor}'.`);
    const { versions } = await this.services.catalog;
    const page = await versions.published(catalogOwner(identity), {
      limit: TOOLS_PER_PAGE,
      ...(after ? { after } : {}),
    });
    const tools = await Promise.all(page.items.map((version) => this.toolOf(identity, version)));
    return { tools, ...(page.next ? { nextCursor: cursorOf(page.next) } : {}) };
  }

  /**
   * The tool of one published version.
   * @param identity - the caller (the version is read from its catalog)
   * @param version - the version, with its method's name
   */
  async toolOf(identity: Identity, version: PublishedVersion): Promise<Tool> {
    const key = `${version.methodId}@${version.version}:${version.digest}:${version.name}`;
    const kept = this.kept.get(key);
    if (kept) return kept;
    const tool = await this.describe(identity, version);
    if (this.kept.size >= KEPT_TOOLS) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, tool);
    return tool;
  }

  private async describe(identity: Identity, version: PublishedVersion): Promise<Tool> {
    const name = methodToolName(version);
    const title = `${version.name} (v${version.version})`;
    const meta = { 'mthds/method_id': version.methodId, 'mthds/version': version.version };
    const about = version.description ?? `Method ${version.name}`;
    try {
      const selector = { method_id: `${version.methodId}@${version.version}` };
      const report = encodedJsonValue(await this.services.diagnose('validate', rawJson(selector), identity, undefined));
      const valid = report as ValidReport;
      const contract =
        valid.is_valid && valid.default_pipe_ref ? valid.pipe_io_contracts[valid.default_pipe_ref] : undefined;
      if (!contract) throw new RangeError('the version has no main pipe to run');
      const pipe = pipeDescription(valid);
      return {
        name,
        title,
        description: pipe ? `${about} — ${pipe}` : about,
        inputSchema: inputSchemaOf(contract),
        outputSchema: outputSchemaOf(contract),
        _meta: { ...meta, 'mthds/pipe_ref': valid.default_pipe_ref },
      };
    } catch (error) {
      return {
        name,
        title,
        description: `${about} (its input contract could not be read: ${error instanceof MthdsError || error instanceof RangeError ? error.message : 'an internal error'})`,
        inputSchema: { type: 'object' },
        _meta: meta,
      };
    }
  }
}
