/**
 * The crate: the canonical JSON encoding of a normalized library (spec §2.8, §4.6; docs/crate.md#crate-shape), as
 * `POST /v1/resolve` returns it and code generators consume it.
 *
 * Glossary: *qualified* means `domain.Code` (concept) or `domain.pipe_code` (pipe); natives are `native.<Code>`.
 * *Flattened* means a concept that refines a custom concept carries the effective structure of its ancestors instead of
 * the `refines` link (only a chain ending at a native keeps `refines`).
 */
import type { PipeBlueprint } from '../parse/pipe-blueprints.js';

/**
 * The MTHDS standard version a crate declares in `mthds_version` (docs/crate.md#crate-shape: `MTHDS_STANDARD_VERSION`).
 */
export const MTHDS_STANDARD_VERSION = '1.0.0';

/**
 * A structure field of a crate concept, members in this order; absent members are omitted (docs/crate.md#crate-shape).
 * `concept_ref` / `item_concept_ref` are qualified (a cross-package `alias->domain.Code` stays as written).
 */
export interface CrateField {
  description: string;
  type?: 'text' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'list' | 'dict' | 'concept';
  key_type?: string;
  value_type?: string;
  item_type?: string;
  concept_ref?: string;
  item_concept_ref?: string;
  choices?: string[];
  default_value?: unknown;
  required: boolean;
}

/**
 * A crate concept (docs/crate.md#crate-shape): the description, the effective structure (own or inherited through
 * `refines`), and `refines` only when the refinement chain ends at a native (or at a cross-package concept that is not
 * loaded, kept as written). A string-shorthand concept is a description-only object; a native is `{description}`.
 */
export interface CrateConcept {
  description: string;
  /** Field name → field, in authored order. */
  structure?: Record<string, CrateField>;
  refines?: string;
}

/**
 * A crate pipe: the blueprint as written (members in schema order: `type`, `description`, `inputs`, `output`, then
 * the type's own), absent members omitted, with every reference qualified: concept refs of `inputs`, `output` and
 * `combined_output` keep their multiplicity suffix; step, branch, outcome, default-outcome and batch-branch pipe refs
 * are qualified; `fail` / `continue` and cross-package `x->…` refs stay as written.
 */
export type CratePipe = PipeBlueprint;

/** A crate domain: the merged header facts of the bundles declaring it (first write wins), members in this order. */
export interface CrateDomain {
  code: string;
  description?: string;
  system_prompt?: string;
  /** A bare pipe code of the domain. */
  main_pipe?: string;
}

/** The semantic part of a crate: what the fingerprint covers (docs/crate.md#crate-shape). */
export interface CrateSemantics {
  concepts: Record<string, CrateConcept>;
  pipes: Record<string, CratePipe>;
  domains: Record<string, CrateDomain>;
}

/**
 * A crate (spec §2.8; docs/crate.md#crate-shape). Members in this order; every map key-sorted (UTF-16 code unit order).
 * - `concepts`: qualified ref → concept, the declared ones plus every referenced native.
 * - `pipes`: qualified ref → pipe.
 * - `domains`: domain code → domain.
 * - `source_map`: qualified ref of each declared concept and pipe → the `source` label of its file (refs of a file
 *   sent without a label are absent).
 * - `fingerprint`: 64 lowercase hex chars (see `crateFingerprint`).
 */
export interface Crate extends CrateSemantics {
  mthds_version: string;
  source_map: Record<string, string>;
  fingerprint: string;
}
