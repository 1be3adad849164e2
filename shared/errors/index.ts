/**
 * Public surface of `shared/errors`: the error classes, the catalog and the problem-document renderer.
 * @see spec §7
 */
export { ERROR_CATALOG, catalogEntry, type CatalogEntry, type ErrorDomain, type ErrorOrigin, type ErrorType } from './catalog.js';
export { MthdsError, type MthdsErrorOptions, type ProviderMetadata, type UserAction } from './mthds-error.js';
export * from './api-errors.js';
export * from './bundle-errors.js';
export * from './bundle-transport-errors.js';
export * from './method-errors.js';
export * from './runtime-errors.js';
export * from './template-errors.js';
export * from './config-errors.js';
export * from './inference-errors.js';
export * from './orchestration-errors.js';
export * from './capacity-errors.js';
export * from './outbound-errors.js';
export * from './ownership-errors.js';
export * from './crash-errors.js';
export { errorFromReport, toErrorReport, type ErrorReport } from './error-report.js';
export type { FixOp, SuggestedFix, ValidationErrorCategory, ValidationErrorItem } from './validation-error-item.js';
export {
  CATCH_ALL_DETAIL,
  kebabErrorName,
  renderProblem,
  toMthdsError,
  type ErrorDisclosure,
  type ProblemContext,
  type ProblemDocument,
  type RenderedProblem,
} from './problem-document.js';
