/**
 * Public surface of `shared/errors`: the error classes, the catalog and the problem-document renderer.
 * @see spec §7
 */

export * from './api-errors.js';
export * from './bundle-errors.js';
export * from './bundle-transport-errors.js';
export * from './capacity-errors.js';
export {
  type CatalogEntry,
  catalogEntry,
  ERROR_CATALOG,
  type ErrorDomain,
  type ErrorOrigin,
  type ErrorType,
} from './catalog.js';
export * from './config-errors.js';
export * from './control-plane-errors.js';
export * from './crash-errors.js';
export { disclosedReport, type ErrorReport, errorFromReport, toErrorReport } from './error-report.js';
export * from './inference-errors.js';
export * from './method-catalog-errors.js';
export * from './method-errors.js';
export { MthdsError, type MthdsErrorOptions, type ProviderMetadata, type UserAction } from './mthds-error.js';
export * from './orchestration-errors.js';
export * from './outbound-errors.js';
export * from './ownership-errors.js';
export {
  CATCH_ALL_DETAIL,
  disclosedMessage,
  type ErrorDisclosure,
  isCallerFault,
  kebabErrorName,
  type ProblemContext,
  type ProblemDocument,
  type RenderedProblem,
  renderProblem,
  toMthdsError,
} from './problem-document.js';
export * from './retry-errors.js';
export * from './run-control-errors.js';
export * from './runtime-errors.js';
export * from './storage-errors.js';
export * from './template-errors.js';
export * from './tenancy-errors.js';
export type { FixOp, SuggestedFix, ValidationErrorCategory, ValidationErrorItem } from './validation-error-item.js';
