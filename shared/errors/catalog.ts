/**
 * The error catalog: every `error_type` this service can emit, with its HTTP status, title, domain and provenance.
 *
 * One table keeps the wire honest (CONTRIBUTING.md#10-one-error-catalog-checked-both-ways): the problem renderer reads
 * status and title from here, a test
 * checks that every error class has an entry and every entry a class, and `docs/errors.md` lists the same names.
 *
 * @see spec §7.1 (envelope), §7.2 (status mapping), docs/errors.md#error-pages, docs/errors.md#catalog (titles,
 * statuses)
 */

/** Where an error class says the fault lies (spec §7.1 `error_domain`). */
export type ErrorDomain = 'input' | 'config' | 'runtime';

/**
 * Who authored the error:
 * - `api`: the HTTP layer's own checks. `retryable` is always emitted (false) and the detail is never redacted.
 * - `runtime`: the language core, runtime or inference. `retryable` is emitted only when set; strict disclosure
 *   redacts the detail unless the class is caller-facing.
 */
export type ErrorOrigin = 'api' | 'runtime';

/** One catalog entry. */
export interface CatalogEntry {
  /** HTTP status of the problem document. */
  readonly status: number;
  /** Short human title (docs/errors.md#error-pages). */
  readonly title: string;
  /** Domain, absent for domain-less errors (which render as 500). */
  readonly domain?: ErrorDomain;
  /** Who authors it. */
  readonly origin: ErrorOrigin;
  /** True when the message is written for the caller and survives `ERROR_DISCLOSURE=strict` (spec §7.5). */
  readonly callerFacing?: boolean;
  /**
   * Runtime errors map to a status by their instance's domain (input → 422, else 500) unless pinned here to the
   * catalog status (spec §7.2 explicit statuses).
   */
  readonly pinned?: boolean;
  /** Replacement detail under strict disclosure, when the spec names one (spec §7.5). */
  readonly strictDetail?: string;
  /**
   * Machine-readable `code` member of the problem document (an RFC 7807 extension). The run-lifecycle routes carry
   * one so SDK clients can tell "unknown run" from "route not served" (docs/api.md#run-lifecycle).
   */
  readonly code?: string;
}

/** The catalog itself, keyed by `error_type` (the class name). */
export const ERROR_CATALOG = {
  // API-authored (docs/errors.md#catalog)
  BadRequest: { status: 400, title: 'Bad request', domain: 'input', origin: 'api' },
  StartRequiresAsyncOrchestration: {
    status: 400,
    title: 'Start requires async orchestration',
    domain: 'input',
    origin: 'api',
  },
  Unauthenticated: { status: 401, title: 'Unauthenticated', domain: 'input', origin: 'api' },
  CrossOriginRequestRefused: { status: 403, title: 'Cross-origin request refused', domain: 'input', origin: 'api' },
  OperatorCredentialRequired: { status: 403, title: 'Operator credential required', domain: 'input', origin: 'api' },
  QueueDashboardReadOnly: { status: 403, title: 'Queue dashboard read-only', domain: 'input', origin: 'api' },
  OrchestrationModeOverrideForbidden: {
    status: 403,
    title: 'Orchestration mode override forbidden',
    domain: 'input',
    origin: 'api',
  },
  NotFound: { status: 404, title: 'Not found', domain: 'input', origin: 'api' },
  ConsoleNotBuiltError: {
    status: 503,
    title: 'Console not built',
    domain: 'config',
    origin: 'api',
    code: 'console_not_built',
  },
  ErrorPageNotFoundError: {
    status: 404,
    title: 'Error page not found',
    domain: 'input',
    origin: 'api',
    code: 'error_page_not_found',
  },
  MethodNotAllowed: { status: 405, title: 'Method not allowed', domain: 'input', origin: 'api' },
  PayloadTooLarge: {
    status: 413,
    title: 'Payload too large',
    domain: 'input',
    origin: 'api',
    code: 'payload_too_large',
  },
  UnsupportedMediaType: { status: 415, title: 'Unsupported media type', domain: 'input', origin: 'api' },
  ValidationError: { status: 422, title: 'Validation error', domain: 'input', origin: 'api' },
  InvalidJSON: { status: 422, title: 'Invalid JSON', domain: 'input', origin: 'api' },
  ServerMisconfigured: { status: 500, title: 'Server misconfigured', domain: 'config', origin: 'api' },
  InternalServerError: { status: 500, title: 'Internal server error', domain: 'runtime', origin: 'api' },
  MethodRefNotSupported: { status: 501, title: 'Method ref not supported', domain: 'config', origin: 'api' },
  InvalidCallbackUrls: { status: 422, title: 'Invalid callback urls', domain: 'input', origin: 'api' },
  InvalidModelCategory: { status: 422, title: 'Invalid model category', domain: 'input', origin: 'api' },
  InvalidBundle: { status: 422, title: 'Invalid bundle', domain: 'input', origin: 'api' },
  InvalidBase64: { status: 400, title: 'Invalid base64', domain: 'input', origin: 'api' },
  CustomCodeRequiresSandbox: { status: 403, title: 'Custom code requires sandbox', domain: 'input', origin: 'api' },
  RunNotFoundError: { status: 404, title: 'Run not found', domain: 'input', origin: 'api', code: 'run_not_found' },
  RunResultUnavailableError: {
    status: 409,
    title: 'Run result unavailable',
    domain: 'input',
    origin: 'api',
    code: 'run_result_unavailable',
  },

  // Orchestration (spec §1.1, §3, §7.2)
  PipelineManagerAlreadyExistsError: {
    status: 409,
    title: 'Pipeline manager already exists',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
    code: 'run_id_in_flight',
  },
  MissingOrchestratorError: {
    status: 500,
    title: 'Missing orchestrator',
    domain: 'config',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  RunsWaitingLimitError: {
    status: 429,
    title: 'Runs waiting limit',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
    code: 'runs_waiting_limit',
  },
  PriorityAboveCeilingError: {
    status: 403,
    title: 'Priority above ceiling',
    domain: 'input',
    origin: 'api',
    code: 'priority_above_ceiling',
  },
  QueueUnavailableError: {
    status: 503,
    title: 'Queue unavailable',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  RunTimeoutError: {
    status: 504,
    title: 'Run timeout',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  CallbackDeliveryError: { status: 500, title: 'Callback delivery', domain: 'runtime', origin: 'runtime' },
  QueueJobRefusedError: { status: 500, title: 'Queue job refused', domain: 'runtime', origin: 'runtime' },

  // Capacity of the isolated worker-thread pools (docs/isolation.md; spec §7.2, §8)
  ServerBusyError: {
    status: 503,
    title: 'Server busy',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  ServiceNotReadyError: {
    status: 503,
    title: 'Service not ready',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  ComputeBudgetExceededError: {
    status: 422,
    title: 'Compute budget exceeded',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  // Run ownership (spec §3, §5 rule 5, §7.2; docs/run-ownership.md)
  StorageOwnershipMismatchError: {
    status: 403,
    title: 'Storage ownership mismatch',
    domain: 'input',
    origin: 'api',
    code: 'storage_ownership_mismatch',
  },
  // Organizations and their API keys (docs/api.md#api-keys)
  ApiKeyNotFoundError: {
    status: 404,
    title: 'API key not found',
    domain: 'input',
    origin: 'api',
    code: 'api_key_not_found',
  },
  OrganizationNotFoundError: {
    status: 404,
    title: 'Organization not found',
    domain: 'input',
    origin: 'api',
    code: 'organization_not_found',
  },
  ApiKeyLimitReachedError: {
    status: 409,
    title: 'API key limit reached',
    domain: 'input',
    origin: 'api',
    code: 'pipelex_api_key_limit_reached',
  },
  BootstrapAdminRequired: {
    status: 403,
    title: 'Bootstrap admin required',
    domain: 'input',
    origin: 'api',
    code: 'bootstrap_admin_required',
  },
  OrganizationRequired: {
    status: 403,
    title: 'Organization required',
    domain: 'input',
    origin: 'api',
    code: 'organization_required',
  },
  // What the control plane keeps (docs/control-plane.md, docs/api.md#idempotency)
  ControlPlaneUnavailableError: {
    status: 503,
    title: 'Control plane unavailable',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
    code: 'control_plane_unavailable',
  },
  IdempotencyKeyReusedError: {
    status: 409,
    title: 'Idempotency key reused',
    domain: 'input',
    origin: 'api',
    code: 'idempotency_key_reused',
  },
  IdempotencyKeyInUseError: {
    status: 409,
    title: 'Idempotency key in use',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
    code: 'idempotency_key_in_use',
  },
  // The methods catalog (docs/api.md#methods-catalog)
  MethodNotFoundError: { status: 404, title: 'Method not found', domain: 'input', origin: 'api', code: 'not_found' },
  MethodVersionNotFoundError: {
    status: 404,
    title: 'Method version not found',
    domain: 'input',
    origin: 'api',
    code: 'method_version_not_found',
  },
  MethodUpdateConflictError: {
    status: 409,
    title: 'Method update conflict',
    domain: 'input',
    origin: 'api',
    code: 'method_update_conflict',
  },
  MethodBeingDeletedError: {
    status: 409,
    title: 'Method being deleted',
    domain: 'input',
    origin: 'api',
    code: 'method_being_deleted',
  },
  MethodNotPublishedError: {
    status: 409,
    title: 'Method not published',
    domain: 'input',
    origin: 'api',
    code: 'method_not_published',
  },
  InvalidMethodError: { status: 422, title: 'Invalid method', domain: 'input', origin: 'api', code: 'method_invalid' },
  // Run storage (spec §2.3; docs/storage.md)
  StoragePathError: {
    status: 422,
    title: 'Storage path invalid',
    domain: 'input',
    origin: 'api',
    code: 'storage_path_invalid',
  },
  InvalidStorageUriError: {
    status: 422,
    title: 'Invalid storage URI',
    domain: 'input',
    origin: 'api',
    code: 'invalid_storage_uri',
  },
  StorageObjectNotFoundError: {
    status: 404,
    title: 'Storage object not found',
    domain: 'input',
    origin: 'api',
    code: 'storage_object_not_found',
  },
  StorageUnavailableError: {
    status: 503,
    title: 'Storage unavailable',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  PipelineRunIdTakenError: {
    status: 409,
    title: 'Pipeline run id taken',
    domain: 'input',
    origin: 'api',
    code: 'run_id_taken',
  },
  // Retrying a run (docs/checkpoints.md#retrying-a-run)
  RunNotRetryableError: {
    status: 409,
    title: 'Run not retryable',
    domain: 'input',
    origin: 'api',
    code: 'run_not_retryable',
  },
  RunSubmissionUnavailableError: {
    status: 410,
    title: 'Run submission unavailable',
    domain: 'input',
    origin: 'api',
    code: 'run_submission_unavailable',
  },
  // Runs stopped before their end (docs/cancellation.md)
  RunCancelledError: {
    status: 409,
    title: 'Run cancelled',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
    code: 'run_cancelled',
  },
  RunTimedOutError: {
    status: 504,
    title: 'Run timed out',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
    code: 'run_timed_out',
  },
  RunAlreadyFinishedError: {
    status: 409,
    title: 'Run already finished',
    domain: 'input',
    origin: 'api',
    code: 'run_already_finished',
  },
  // Runs that killed what ran them (docs/run-failures.md)
  RunCrashedError: { status: 500, title: 'Run crashed', domain: 'runtime', origin: 'runtime', callerFacing: true },

  // Language core (bundle parsing and validation)
  MthdsParserError: { status: 422, title: 'Mthds parser', domain: 'input', origin: 'runtime', callerFacing: true },
  ValidateBundleError: {
    status: 422,
    title: 'Validate bundle',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },

  // Methods by address (spec §2.2, §7.2; docs/methods.md#errors)
  MethodRefParseError: {
    status: 422,
    title: 'Method ref parse',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  MethodFetchError: {
    status: 422,
    title: 'Method fetch',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  MethodPackageNotFoundError: {
    status: 404,
    title: 'Method package not found',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
    code: 'method_package_not_found',
  },
  MethodPackageAmbiguityError: {
    status: 422,
    title: 'Method package ambiguity',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  MethodPackageTooLargeError: {
    status: 422,
    title: 'Method package too large',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  MethodStructuresRefusedError: {
    status: 403,
    title: 'Method structures refused',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },

  // Runtime (docs/errors.md#catalog)
  PipeNotFoundError: { status: 422, title: 'Pipe not found', domain: 'input', origin: 'runtime', callerFacing: true },
  EntryPipeNotFoundError: {
    status: 422,
    title: 'Entry pipe not found',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    code: 'entry_pipe_not_found',
  },
  EntryPipeAmbiguousError: {
    status: 422,
    title: 'Entry pipe ambiguous',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    code: 'entry_pipe_ambiguous',
  },
  ConceptNotFoundError: {
    status: 422,
    title: 'Concept not found',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  ConceptAmbiguityError: {
    status: 422,
    title: 'Concept ambiguity',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  StuffFactoryError: { status: 422, title: 'Stuff factory', domain: 'input', origin: 'runtime', callerFacing: true },
  PipeInputError: { status: 422, title: 'Pipe input', domain: 'input', origin: 'runtime', callerFacing: true },
  PipeSignatureNotExecutableError: {
    status: 422,
    title: 'Pipe signature not executable',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  PipeStackOverflowError: { status: 500, title: 'Pipe stack overflow', domain: 'runtime', origin: 'runtime' },
  PipeConditionError: { status: 500, title: 'Pipe condition', domain: 'runtime', origin: 'runtime' },
  OptionalValueAbsentError: { status: 500, title: 'Optional value absent', domain: 'runtime', origin: 'runtime' },
  PipeOutputValidationError: { status: 500, title: 'Pipe output validation', domain: 'runtime', origin: 'runtime' },
  JudgmentAnswerMismatchError: {
    status: 500,
    title: 'Judgment answer mismatch',
    domain: 'runtime',
    origin: 'runtime',
  },
  JudgmentRefusedError: { status: 422, title: 'Judgment refused', domain: 'input', origin: 'runtime' },
  Jinja2TemplateSyntaxError: {
    status: 422,
    title: 'Jinja 2 template syntax',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  Jinja2TemplateRenderError: {
    status: 422,
    title: 'Jinja 2 template render',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  Jinja2TemplateSecurityError: {
    status: 422,
    title: 'Jinja 2 template security',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  Jinja2TemplateBudgetError: {
    status: 422,
    title: 'Jinja 2 template budget',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  Jinja2TemplateUndefinedError: {
    status: 422,
    title: 'Jinja 2 template undefined',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  PipeDocGenUndefinedValueError: {
    status: 422,
    title: 'Pipe doc gen undefined value',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  PipeDocGenRenderError: {
    status: 422,
    title: 'Pipe doc gen render',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },
  DocGenEngineMissingError: {
    status: 500,
    title: 'Doc gen engine missing',
    domain: 'config',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  PipeFeatureNotSupportedError: {
    status: 501,
    title: 'Pipe feature not supported',
    domain: 'config',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  PipelexUnexpectedError: { status: 500, title: 'Pipelex unexpected', domain: 'runtime', origin: 'runtime' },
  RunBudgetExceededError: {
    status: 422,
    title: 'Run budget exceeded',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
  RunPipeBudgetExceededError: {
    status: 422,
    title: 'Run pipe budget exceeded',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },

  ModelChoiceNotFoundError: {
    status: 422,
    title: 'Model choice not found',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
  },

  // Configuration
  EnvVarNotFoundError: {
    status: 500,
    title: 'Environment variable not set',
    origin: 'runtime',
    strictDetail: 'Server configuration error',
  },
  PipelexConfigError: { status: 500, title: 'Pipelex config', domain: 'config', origin: 'runtime' },

  // Inference (docs/errors.md#inference-error-categories); the status comes from the category and provider metadata
  LLMCompletionError: { status: 500, title: 'LLM completion', origin: 'runtime' },
  LLMCompletionTruncatedError: { status: 422, title: 'LLM completion truncated', domain: 'input', origin: 'runtime' },
  LLMCompletionRefusedError: { status: 422, title: 'LLM completion refused', domain: 'input', origin: 'runtime' },
  ImgGenGenerationError: { status: 500, title: 'Img gen generation', origin: 'runtime' },
  SearchJobFailureError: { status: 500, title: 'Search job failure', origin: 'runtime' },
  LLMStructuredOutputError: { status: 422, title: 'LLM structured output', domain: 'input', origin: 'runtime' },
  InferenceRateLimitWaitError: {
    status: 503,
    title: 'Inference rate limit wait',
    domain: 'runtime',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },

  // Outbound requests (docs/outbound-requests.md)
  OutboundRequestRefusedError: {
    status: 422,
    title: 'Outbound request refused',
    domain: 'input',
    origin: 'runtime',
    callerFacing: true,
    pinned: true,
  },
} as const satisfies Record<string, CatalogEntry>;

/** Every `error_type` in the catalog. */
export type ErrorType = keyof typeof ERROR_CATALOG;

/**
 * Look up an entry.
 * @param errorType - a class name
 * @returns the entry, or undefined for a name that is not catalogued
 */
export function catalogEntry(errorType: string): CatalogEntry | undefined {
  return (ERROR_CATALOG as Record<string, CatalogEntry>)[errorType];
}
