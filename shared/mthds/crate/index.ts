/**
 * The crate of a library (spec §2.8, §4.6; docs/crate.md#crate-shape): build it and compute its fingerprint.
 */
export { buildCrate } from './build-crate.js';
export { compareCodeUnits } from './compact.js';
export type { Crate, CrateConcept, CrateDomain, CrateField, CratePipe, CrateSemantics } from './crate.js';
