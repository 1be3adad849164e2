/**
 * The error report: an error as plain JSON, so it can cross process boundaries (job results, the run registry,
 * callback payloads) and be rebuilt into an error that renders the same problem document
 * (CONTRIBUTING.md#11-errors-cross-boundaries-as-data).
 * @see spec §6 rules 4–5, docs/api.md#completion-callbacks
 */
import { catalogEntry, type ErrorType } from './catalog.js';
import { MthdsError, type ProviderMetadata, type UserAction } from './mthds-error.js';
import { disclosedMessage, type ErrorDisclosure, kebabErrorName, toMthdsError } from './problem-document.js';
import type { ValidationErrorItem } from './validation-error-item.js';

/** An error as data. Classification members are those of the HTTP problem document. */
export interface ErrorReport {
  error_type: string;
  message: string;
  title: string;
  type_uri: string;
  error_category?: string;
  error_domain?: string;
  retryable?: boolean;
  user_action?: UserAction;
  model?: string;
  provider?: string;
  provider_metadata?: ProviderMetadata;
  validation_errors?: ValidationErrorItem[];
  /**
   * On a failed run's report: the pipe whose run threw first — the innermost failing pipe — or null when the run failed
   * before any pipe ran (docs/run-events.md).
   */
  pipe_code?: string | null;
}

/**
 * Report any thrown value.
 * @param thrown - anything thrown
 * @param docsUrl - base of the `type_uri`
 */
export function toErrorReport(thrown: unknown, docsUrl: string): ErrorReport {
  const error = toMthdsError(thrown);
  const report: ErrorReport = {
    error_type: error.error_type,
    message: error.message,
    title: catalogEntry(error.error_type)?.title ?? error.error_type,
    type_uri: `${docsUrl}/errors/${kebabErrorName(error.error_type)}/`,
  };
  if (error.error_category !== undefined) report.error_category = error.error_category;
  if (error.error_domain !== undefined) report.error_domain = error.error_domain;
  if (error.retryable !== undefined) report.retryable = error.retryable;
  if (error.user_action !== undefined) report.user_action = error.user_action;
  if (error.model !== undefined) report.model = error.model;
  if (error.provider !== undefined) report.provider = error.provider;
  if (error.provider_metadata !== undefined) report.provider_metadata = error.provider_metadata;
  const extensions = error.wireExtensions();
  if (Array.isArray(extensions['validation_errors']))
    report.validation_errors = extensions['validation_errors'] as ValidationErrorItem[];
  return report;
}

/**
 * A report as a caller may see it: unchanged under verbose disclosure; under strict disclosure its message follows
 * {@link disclosedMessage}, `model`, `provider` and `provider_metadata` are dropped, and a redacted report loses its
 * `user_action`, as the problem document of the same error would.
 * @param report - the stored report
 * @param disclosure - `ERROR_DISCLOSURE`
 * @see spec §7.5
 */
export function disclosedReport(report: ErrorReport, disclosure: ErrorDisclosure): ErrorReport {
  if (disclosure === 'verbose') return report;
  const { model: _model, provider: _provider, provider_metadata: _metadata, user_action, ...kept } = report;
  const message = disclosedMessage(report.error_type, report.message, disclosure);
  const disclosed: ErrorReport = { ...kept, message };
  if (user_action !== undefined && message === report.message) disclosed.user_action = user_action;
  return disclosed;
}

/** An error rebuilt from a report: renders the problem document the original would have. */
class ReportedError extends MthdsError {
  constructor(private readonly report: ErrorReport) {
    super(report.message, {
      errorType: report.error_type as ErrorType,
      errorDomain: (report.error_domain as MthdsError['error_domain']) ?? null,
      ...(report.retryable === undefined ? {} : { retryable: report.retryable }),
      ...(report.user_action === undefined ? {} : { userAction: report.user_action }),
      ...(report.error_category === undefined ? {} : { errorCategory: report.error_category }),
      ...(report.model === undefined ? {} : { model: report.model }),
      ...(report.provider === undefined ? {} : { provider: report.provider }),
      ...(report.provider_metadata === undefined ? {} : { providerMetadata: report.provider_metadata }),
    });
  }

  override wireExtensions(): Record<string, unknown> {
    return this.report.validation_errors === undefined ? {} : { validation_errors: this.report.validation_errors };
  }
}

/**
 * Rebuild an error from its report. An `error_type` this build does not know becomes the catch-all.
 * @param report - a report made by {@link toErrorReport} (possibly in another process)
 */
export function errorFromReport(report: ErrorReport): MthdsError {
  if (!catalogEntry(report.error_type)) return toMthdsError(new Error(`${report.error_type}: ${report.message}`));
  return new ReportedError(report);
}
