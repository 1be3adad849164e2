/**
 * Public surface of `shared/wire`: the runtime's domain values rendered in the shapes the API and the callbacks send
 * (spec §2.4–2.5; docs/api.md) — run results with their working memory, absence records and execution graph, usage
 * records and reports, validation reports with their I/O contracts, the crate, codegen and build routes' answers, form
 * descriptors, the upload and storage-reference answers — and read back where checkpoints and child jobs keep them as
 * JSON. It imports the language core and the runtime, never orchestration or HTTP; neither of those imports it
 * (docs/architecture.md).
 */

export { type AbsenceRecord, absenceOf, absenceRecord } from './absence-record.js';
export {
  type ApiKeyItem,
  apiKeyItem,
  type DispatchTermsAnswer,
  dispatchTermsAnswer,
  type IssuedApiKeyAnswer,
  issuedApiKeyAnswer,
  type OrganizationAnswer,
  type OrganizationSettingsAnswer,
  organizationAnswer,
  organizationSettingsAnswer,
} from './api-keys.js';
export {
  type BuildInputsValidReport,
  type BuildOutputValidReport,
  type BuildRunnerValidReport,
  buildInputsValidReport,
  buildOutputValidReport,
  buildRunnerValidReport,
  type CrateInvalidReport,
  codegenValidReport,
  crateInvalidReport,
  dryRunInvalidReport,
  resolveValidReport,
} from './build-reports.js';
export type { FormNode, PipeInputFormDescriptor, PipeOutputFormDescriptor } from './form-descriptors.js';
export {
  LEGACY_BLUEPRINT_MEMBER,
  type LegacyValidation,
  legacyValidation,
} from './legacy-validation.js';
export {
  type MethodData,
  type MethodDeletionAccepted,
  type MethodListItem,
  type MethodListPage,
  type MethodPublishAnswer,
  type MethodVersionData,
  type MethodVersionListPage,
  type MethodVersionSummaryData,
  methodData,
  methodDeletionAccepted,
  methodListPage,
  methodPublished,
  methodVersionData,
  methodVersionListPage,
} from './methods.js';
export { type PipeIoFile, type PipeIoValidReport, pipeIoValidReport } from './pipe-io-report.js';
export {
  type RunHistoryDetail,
  type RunHistoryItem,
  runHistoryDetail,
  runHistoryItem,
} from './run-history.js';
export { missingRunIOArtifacts, type RunIOArtifacts, runIOArtifacts } from './run-io-artifacts.js';
export { completedRunResult, type PipeStructure, type RunResult, type RunState, withProvenance } from './run-result.js';
export {
  RUN_RESULT_ARTIFACTS,
  type RunResultArtifact,
  type RunResultsBody,
  runResultsBody,
} from './run-results.js';
export {
  type BulkResolvedItem,
  type ResolvedStorageUrl,
  refusedItem,
  resolvedItem,
  type StorageUrlRefusal,
  type UploadAnswer,
  type UploadGrantAnswer,
} from './storage-links.js';
export {
  inferenceCallOf,
  pipeTokenUsageOf,
  type RunUsageReport,
  runUsageReport,
  type TokenCounts,
  type TokensUsageRecord,
  tokenCounts,
  tokensUsageRecord,
  type UsageFigures,
  usageFigures,
  usageSummaryOf,
} from './usage.js';
export { type InvalidReport, type PipeIOContract, type ValidReport, validationReport } from './validation-report.js';
