/**
 * The members of the API's answers the console reads (docs/api.md). The console is a separate front end talking HTTP
 * only, so it declares what it reads here instead of importing the server's modules; unknown members are ignored.
 */

/** A method of the catalog list (`GET /v1/methods`). */
export interface MethodItem {
  method_id: string;
  name: string;
  description: string | null;
  created_at: string;
  deletion_state?: string;
}

/** A version summary of a method. */
export interface VersionSummary {
  version: number;
  source_digest: string;
  description: string | null;
  published_at: string;
  published_by: string;
}

/** `MethodData`: a method with its draft. */
export interface MethodData extends MethodItem {
  mthds: string;
  updated_at: string;
  draft_digest: string;
  latest_version: VersionSummary | null;
  latest_published: VersionSummary | null;
}

/** A suggested fix's operation (docs/suggested-fixes.md). */
export interface FixOp {
  kind: 'set_key' | 'ensure_table' | 'delete_key' | 'delete_table' | 'rename_table_key' | 'move_key' | 'remap_value';
  table_path: string[];
  key?: string;
  value?: unknown;
  new_key?: string;
  new_table_path?: string[];
  mapping?: Record<string, string>;
}

/** A suggested fix of a validation item. */
export interface SuggestedFix {
  fix_code: string;
  description: string;
  safety: 'safe' | 'unsafe';
  ops: FixOp[];
}

/** A validation item (docs/api.md#validation-items). */
export interface ValidationItem {
  category: string;
  message: string;
  error_type?: string;
  pipe_code?: string;
  concept_code?: string;
  field_path?: string;
  suggested_fix?: SuggestedFix;
}

/** A lint diagnostic (docs/api.md#post-v1lint). */
export interface LintDiagnostic {
  kind: string;
  message: string;
  range: { start_offset: number; end_offset: number } | null;
}

/** One node of a graph_spec (docs/graph-spec.md). */
export interface GraphNode {
  id: string;
  kind: 'controller' | 'operator';
  pipe_code: string;
  pipe_type: string;
  status: string;
}

/** One edge of a graph_spec. */
export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  kind: 'contains' | 'data' | 'batch_item' | 'batch_aggregate' | string;
  label: string | null;
}

/** A graph_spec, the members the console draws. */
export interface GraphSpec {
  nodes: GraphNode[];
  edges: GraphEdge[];
  concept_registry?: Record<string, { code: string; domain_code: string; description: string | null }>;
}

/** An I/O contract slot. */
export interface ContractSlot {
  concept_ref: string;
  multiplicity: string;
  item_count?: number | null;
  presence?: string;
  optional?: boolean;
}

/** A form node (docs/forms.md#form-descriptors). */
export interface FormNode {
  kind: string;
  name?: string;
  concept_ref?: string;
  description?: string;
  required: boolean;
  presence?: string;
  integer?: boolean;
  choices?: string[];
  fields?: FormNode[];
  item?: FormNode;
  item_count?: number;
  default_value?: unknown;
}

/** The verdict of `POST /v1/validate`, both arms. */
export interface ValidationVerdict {
  is_valid: boolean;
  validation_errors?: ValidationItem[];
  warnings?: ValidationItem[];
  graph_spec?: GraphSpec | null;
  pipe_io_contracts?: Record<string, { inputs: Record<string, ContractSlot>; output: ContractSlot }>;
  input_form?: Record<string, { fields: FormNode[] }>;
  default_pipe_ref?: string | null;
  is_runnable?: boolean;
  message: string;
}

/** A run's error report (docs/run-events.md#why-a-run-failed). */
export interface ErrorReport {
  error_type: string;
  message: string;
  title?: string;
  type_uri?: string;
  error_domain?: string;
  retryable?: boolean;
  pipe_code?: string | null;
}

/** A usage total. */
export interface UsageTotal {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

/** An item of the run history (`GET /v1/runs`). */
export interface RunItem {
  pipeline_run_id: string;
  status: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  pipe_code: string | null;
  method_id: string | null;
  method_version: number | string | null;
  error: ErrorReport | null;
  usage: UsageTotal | null;
  retry_of: string | null;
}

/** A run's detail (`GET /v1/runs/{id}`). */
export interface RunDetail extends RunItem {
  mthds_contents: string[] | null;
  inputs: unknown;
  retries: string[];
}

/** The run's status (`GET /v1/runs/{id}/status`). */
export interface RunStatus {
  pipeline_run_id: string;
  status: string;
  workflow_id: string | null;
  /** The run's OpenTelemetry trace, when the deployment traces (docs/tracing.md). */
  trace_id?: string;
  error?: ErrorReport | null;
  usage?: { total: UsageTotal } | null;
}

/** An API key (`GET /v1/pipelex-api-keys`). */
export interface ApiKey {
  id: string;
  label: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** A key just made: the plaintext is in this answer only. */
export interface IssuedKey {
  api_key: string;
  id: string;
  label: string;
  prefix: string;
}

/** One group of `GET /v1/usage`. */
export interface UsageGroup {
  key: string | null;
  runs: number;
  calls: number;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
}

/** The bundle files of a method's `mthds`: one raw text, or the JSON text of `[{name, content}]`. */
export function methodFiles(mthds: string): { name: string; content: string }[] {
  if (mthds.trimStart().startsWith('[')) {
    try {
      const files = JSON.parse(mthds) as { name: string; content: string }[];
      if (Array.isArray(files)) return files;
    } catch {
      // a raw text that starts with a TOML array-of-tables header
    }
  }
  return [{ name: 'method.mthds', content: mthds }];
}
