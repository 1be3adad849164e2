/**
 * One item of a validation verdict (spec §2.6) and the suggested fix it may carry (spec §2.7).
 *
 * Items carry only the members that apply: absent members are omitted, never null.
 */

/** Stage that produced the item (spec §2.6). */
export type ValidationErrorCategory = 'blueprint_validation' | 'pipe_factory' | 'pipe_validation' | 'dry_run';

/** A TOML patch operation of a suggested fix (spec §2.7), discriminated on `kind`. */
export type FixOp =
  | {
      kind: 'set_key';
      table_path: string[];
      key: string;
      value: string | number | boolean | Record<string, string | number | boolean>;
    }
  | { kind: 'ensure_table'; table_path: string[] }
  | { kind: 'delete_key'; table_path: string[]; key: string }
  | { kind: 'delete_table'; table_path: string[] }
  | { kind: 'rename_table_key'; table_path: string[]; key: string; new_key: string }
  | { kind: 'move_key'; table_path: string[]; key: string; new_table_path: string[]; new_key: string }
  | { kind: 'remap_value'; table_path: string[]; key: string; mapping: Record<string, string> };

/** A structured fix (spec §2.7). */
export interface SuggestedFix {
  fix_code: string;
  description: string;
  safety: 'safe' | 'unsafe';
  source?: string | null;
  ops: FixOp[];
}

/** A validation error item (spec §2.6). */
export interface ValidationErrorItem {
  category: ValidationErrorCategory;
  message: string;
  error_type?: string;
  source?: string | null;
  pipe_code?: string;
  concept_code?: string;
  domain_code?: string;
  field_path?: string;
  field_name?: string;
  variable_names?: string[];
  missing_concept_code?: string;
  missing_pipe_code?: string;
  declared_concepts?: string[];
  /** `unknown_model` (protocol 0.7.0): the model reference as the bundle writes it (`$vison`, `@default-smal`). */
  model_reference?: string;
  /** `unknown_model`: the kind of model the field takes (`llm`, `img_gen`, `text_extractor`, `search`, `judgment`). */
  model_type?: string;
  /** `unknown_model`: the deck's closest names of the same kind, written as a bundle writes them (`$vision`). */
  suggestions?: string[];
  suggested_fix?: SuggestedFix;
}
