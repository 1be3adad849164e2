/**
 * Errors raised while building or running a pipeline (docs/errors.md#catalog).
 */
import { MthdsError } from './mthds-error.js';

/** The requested pipe is not in the library (422). */
export class PipeNotFoundError extends MthdsError {}
/**
 * 422: the pipe a route was asked to describe cannot be selected because nothing names it: a `pipe_ref` naming no pipe,
 * a fetched manifest's `main_pipe` the closure lacks, or no `pipe_ref` and no `main_pipe` (code `entry_pipe_not_found`;
 * docs/api.md#post-v1pipe-io).
 */
export class EntryPipeNotFoundError extends MthdsError {}
/**
 * 422: the pipe a route was asked to describe cannot be selected because several match: a bare code declared in several
 * domains, or no `pipe_ref` and several `main_pipe` declarations; the candidates are in the message (code
 * `entry_pipe_ambiguous`; docs/api.md#post-v1pipe-io).
 */
export class EntryPipeAmbiguousError extends MthdsError {}
/** A concept reference names no loaded concept (spec §2.3 rule 4; 422). */
export class ConceptNotFoundError extends MthdsError {}
/** A bare concept name found in several domains (spec §2.3 rule 3; 422). */
export class ConceptAmbiguityError extends MthdsError {}
/** Run inputs cannot become stuffs: bad form, content that fails the concept's structure, empty list (422). */
export class StuffFactoryError extends MthdsError {}
/** A pipe's required input is missing from the working memory (422). */
export class PipeInputError extends MthdsError {}
/** A live run reached a contract-only pipe (PipeSignature). */
export class PipeSignatureNotExecutableError extends MthdsError {}
/** Pipe recursion deeper than the stack limit. */
export class PipeStackOverflowError extends MthdsError {}
/** A PipeCondition whose expression rendered nothing, or whose outcome is `fail`. */
export class PipeConditionError extends MthdsError {}
/**
 * A PipeJudge's judgment model answered outside the questions asked: a missing or extra question, an answer of another
 * kind, an option not offered, or a level off the scale (docs/language.md#pipejudge).
 */
export class JudgmentAnswerMismatchError extends MthdsError {}
/** A PipeJudge's judgment model refused to answer a question (docs/language.md#pipejudge). */
export class JudgmentRefusedError extends MthdsError {}
/**
 * A force-marked (`X!`) input was absent when its pipe was about to run; the detail carries the absence's provenance
 * chain (docs/language.md#optionality-presence-markers-and-absences).
 */
export class OptionalValueAbsentError extends MthdsError {}
/** A pipe produced content that does not match its declared output concept. */
export class PipeOutputValidationError extends MthdsError {}
/** A pipe type or pipe feature this runner cannot execute yet (501; the bundle is valid). */
export class PipeFeatureNotSupportedError extends MthdsError {}
/**
 * A PipeDocGen template or filename read a value its inputs do not have (strict undefined;
 * docs/document-generation.md).
 */
export class PipeDocGenUndefinedValueError extends MthdsError {}
/**
 * A PipeDocGen could not print its file: the engine failed on the composed data or template file, the file outgrew
 * its size bound, or printing outlived its time bound (docs/document-generation.md).
 */
export class PipeDocGenRenderError extends MthdsError {}
/** A PipeDocGen names a doc_gen engine this process has no implementation of (docs/document-generation.md). */
export class DocGenEngineMissingError extends MthdsError {}
/** A non-MTHDS exception escaped the runtime; its detail is `<Class>: <message>`. */
export class PipelexUnexpectedError extends MthdsError {}
/**
 * The run's `max_cost_usd` budget would be exceeded by its next inference call (spent + the call's estimate), or the
 * model of that call has no price, so the call cannot be checked against the budget (docs/inference.md#run-budget).
 * Raised before the call, which is not made; never retryable (422, domain `input`).
 */
export class RunBudgetExceededError extends MthdsError {}
/**
 * The run would start more pipes than one run may (`RUN_MAX_PIPES`, docs/limits.md#pipes-per-run): batches over
 * lists multiplied them. Raised as the pipe past the bound is about to start; never retryable (422, domain `input`).
 */
export class RunPipeBudgetExceededError extends MthdsError {}
