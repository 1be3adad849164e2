/**
 * Ports the runtime is given by its host (CONTRIBUTING.md#3-the-runtime-reaches-out-through-ports): inference, clock,
 * ids and the template renderer. The
 * runtime imports no adapter; `api/` and `worker/` wire real ones, tests pass their own.
 *
 * The inference port has the shape of `shared/inference`'s `InferenceBackend`, so any backend satisfies it.
 */
import type { FanOutPort } from './fan-out-port.js';
import type { RunObserver } from './run-observer.js';
import type { StepCheckpointStore } from './step-checkpoint-store.js';
import type { TemplateRenderer } from './template-renderer.js';

/** Token counts of one inference call. */
export interface TokenUsage {
  /** The model handle (or the provider's name for it). */
  model: string;
  input_tokens: number;
  output_tokens: number;
  /** The provider's model name, when it differs from `model`. */
  model_id?: string;
  /** The backend that served the call. */
  backend?: string;
  /** Cost in USD, when the model spec has rates. */
  cost?: number | null;
}

/**
 * The organization a call is made for, which the host's provider rate limits count the call against
 * (docs/inference.md#organization-shares). The host sets it on the calls of a run's inference port; the runtime never
 * reads or sets it.
 */
export interface CallTenant {
  /** An opaque key, one path-safe segment (an organization's id). */
  key: string;
  /** Its share of each rate limit, in (0, 1]; the deployment's when absent. 1 sets no cap. */
  share?: number;
}

/** One LLM call: system and user prompt, already rendered. */
export interface LlmRequest {
  /** The pipe making the call, for logs and errors. */
  pipeCode: string;
  /** The pipe's `model` reference as written (`$preset`, `@alias`, `~waterfall` or a handle). */
  modelRef?: string;
  /** The provider's model name, set by the routing layer for the concrete backend. */
  modelId?: string;
  systemPrompt?: string;
  userPrompt: string;
  /** Images referenced by the prompts, in `[Image N]` order (http(s) or `data:` URLs). */
  images?: { url: string; mime_type?: string }[];
  /** Documents referenced by the prompts, in `[Document N]` order. */
  documents?: { url: string; mime_type?: string }[];
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
  /** The organization the call is made for, set by the host (see {@link CallTenant}). */
  tenant?: CallTenant;
}

/** An LLM call that must answer a JSON value valid against `jsonSchema`. */
export interface ObjectRequest extends LlmRequest {
  schemaName: string;
  jsonSchema: Record<string, unknown>;
  /**
   * The deck category `modelRef` is read in: `judgment` for PipeJudge (docs/language.md#pipejudge; its models are LLMs
   * answering in structured output, and no default applies unless the judgment deck has one); `llm` when absent.
   */
  modelCategory?: 'llm' | 'judgment';
  /** Problems with a candidate answer, as sentences; empty when valid. */
  validate(value: unknown): string[];
  maxRetries?: number;
}

/** An image generation call (PipeImgGen, docs/runtime.md#pipeimggen). */
export interface ImageRequest {
  pipeCode: string;
  modelRef?: string;
  /** The provider's model name, set by the routing layer. */
  modelId?: string;
  prompt: string;
  negativePrompt?: string;
  aspectRatio?: string;
  /**
   * The pipe's `size` (0.16): a portable tier (`0.5k`, `1k`, `2k`, `4k`: a pixel class at the aspect ratio, each
   * provider mapping it to its own grid), or exact pixel dimensions.
   */
  size?: string | { width: number; height: number };
  /** Images wanted (≥ 1). */
  count: number;
  signal?: AbortSignal;
  /** The organization the call is made for, set by the host (see {@link CallTenant}). */
  tenant?: CallTenant;
}

/** A generated image (native Image content). */
export interface GeneratedImage {
  url: string;
  mime_type?: string;
  source_prompt: string;
  source_negative_prompt?: string | null;
}

/** A web search call (PipeSearch, docs/runtime.md#pipesearch). */
export interface SearchRequest {
  pipeCode: string;
  modelRef?: string;
  query: string;
  fromDate?: string;
  toDate?: string;
  includeDomains?: string[];
  excludeDomains?: string[];
  maxResults?: number;
  /**
   * A structured search (docs/pipes.md): the JSON schema of the object the provider answers with, instead of a
   * sourced answer, when the pipe's output is not a SearchResult.
   */
  jsonSchema?: Record<string, unknown>;
  signal?: AbortSignal;
  /** The organization the call is made for, set by the host (see {@link CallTenant}). */
  tenant?: CallTenant;
}

/** A sourced answer (native SearchResult content). */
export interface SearchAnswer {
  answer: string;
  sources: { url: string; title?: string | null; snippet?: string | null }[];
}

/** What kind of inference call a price quote is for. */
export type QuotedCall = 'text' | 'object' | 'images' | 'search';

/** A call to price before it is made: its kind, the pipe's model reference and its own output-token bound. */
export interface QuoteRequest {
  call: QuotedCall;
  /** The pipe's `model` reference as written; the deck's default for the call kind when absent. */
  modelRef?: string;
  /** The call's own output-token bound (an LLM call's `maxTokens`), before the preset's and the model spec's. */
  maxTokens?: number;
}

/**
 * The prices of the model that would serve a call (docs/inference.md#prices), in USD: `input` / `output` per million
 * tokens, `image` per generated image, `search` per search call; null where the model spec has no such price.
 */
export interface CallQuote {
  /** The model handle that would serve the call. */
  model: string;
  input: number | null;
  output: number | null;
  image: number | null;
  search: number | null;
  /**
   * Most output tokens the call may produce (the call's, the preset's, else the model spec's `max_tokens`); null when
   * none is set.
   */
  maxOutputTokens: number | null;
}

/** The inference port (docs/inference.md). Image generation and search are optional capabilities of a backend. */
export interface InferencePort {
  readonly name: string;
  readonly isMock: boolean;
  generateText(request: LlmRequest): Promise<{ text: string; usage: TokenUsage }>;
  generateObject(request: ObjectRequest): Promise<{ object: unknown; usage: TokenUsage }>;
  generateImages?(request: ImageRequest): Promise<{ images: GeneratedImage[]; usage: TokenUsage }>;
  /** A search: a sourced answer, and with `jsonSchema` the `object` the provider filled (`result` then unused). */
  search?(request: SearchRequest): Promise<{ result: SearchAnswer; object?: unknown; usage: TokenUsage }>;
  /**
   * The prices of the model that would serve a call, without calling it (for a run budget, docs/inference.md
   * "Run budget"); a backend without prices omits it.
   * @throws ModelChoiceNotFoundError when the reference resolves to no servable model
   */
  quote?(request: QuoteRequest): CallQuote;
}

/** The document extractor port (PipeExtract, docs/runtime.md#pipeextract). */
export interface DocumentExtractorPort {
  readonly name: string;
  extractPages(request: {
    pipeCode: string;
    document: { url: string; mime_type?: string | null };
    /** Web pages: keep the fetched HTML on each page (`raw_html`); PipeExtract `include_raw_html` (0.16). */
    includeRawHtml?: boolean;
    /** Web pages: run the page's JavaScript before reading it; PipeExtract `render_js` (0.16). */
    renderJs?: boolean;
    signal?: AbortSignal;
  }): Promise<{
    pages: { text: string; pageViewUrl?: string; rawHtml?: string }[];
  }>;
}

/**
 * One file to print (PipeDocGen, docs/document-generation.md): the engine chosen from the doc_gen deck and what it
 * prints
 * from. A layout prints `title` and `data`; the `chromium-pdf` engine prints `html`; a template-file engine fills
 * `templateFile` with `data`.
 */
export interface PrintRequest {
  /** The pipe printing, for errors. */
  pipeCode: string;
  /**
   * The engine's name (`pdfkit-pdf`, `exceljs-xlsx`, `docx-docx`, `docxtemplater-docx`, `chromium-pdf`,
   * `pptx-template`).
   */
  engine: string;
  format: 'pdf' | 'xlsx' | 'docx' | 'pptx';
  /** The layout's title: the humanized name of the single input, else the pipe code. */
  title: string;
  /** The pipe's inputs as plain data, by input name: an item's content object, or a list's array of them. */
  data: Record<string, unknown>;
  /** The composed HTML (pdf from a `template` or an `.html` `template_file`). */
  html?: string;
  /** The bytes of an office `template_file`. */
  templateFile?: Uint8Array;
  /** Largest file the print may produce, in bytes. */
  maxBytes: number;
  signal?: AbortSignal;
}

/** The document printer port (PipeDocGen's print stage): engines by name, no AI call. */
export interface DocumentPrinterPort {
  /** Whether this printer implements an engine (a doc_gen deck engine it lacks answers `DocGenEngineMissingError`). */
  hasEngine(engine: string): boolean;
  /**
   * Print one file.
   * @returns the file's bytes
   * @throws PipeDocGenRenderError (422) when the engine fails on the data or template, or the file would be larger
   *   than `maxBytes`; PipeFeatureNotSupportedError (501) for an engine this deployment cannot run
   */
  print(request: PrintRequest): Promise<Uint8Array>;
  /**
   * Check, without printing, that an engine reads an office `template_file` (the reference dry run's template
   * checker: a docx whose tags parse, an xlsx that is a workbook); an engine without a checker passes.
   * @param request - the pipe, the engine and the template's bytes
   * @throws PipeDocGenRenderError (422) when the engine cannot read the template
   */
  checkTemplate?(request: TemplateCheckRequest): Promise<void>;
}

/** What {@link DocumentPrinterPort.checkTemplate} checks. */
export interface TemplateCheckRequest {
  pipeCode: string;
  engine: string;
  templateFile: Uint8Array;
}

/**
 * The library files of a submitted bundle (its files other than `.mthds`), read by bundle-relative path
 * (docs/bundles.md#whole-bundle-transports). A document `url` without a scheme names one of them.
 */
export interface LibraryFilesPort {
  /** The bytes at `path` (`./` allowed), or undefined when the bundle has no such file; never reads outside it. */
  read(path: string): Uint8Array | undefined;
  /** Every path, sorted. */
  paths(): string[];
}

/** Source of unique ids (stuff codes, run ids). */
export interface IdSource {
  /** A fresh opaque id. */
  next(): string;
}

/** Everything a run needs from its host. */
export interface RuntimeDeps {
  inference: InferencePort;
  /** Reads documents for PipeExtract; without one, PipeExtract is not supported. */
  extractor?: DocumentExtractorPort;
  /** Prints PipeDocGen files; without one, a live PipeDocGen fails with `DocGenEngineMissingError`. */
  printer?: DocumentPrinterPort;
  /** The run's library files, when its bundle came by `bundle_b64` / `files`; documents may name them by path. */
  libraryFiles?: LibraryFilesPort;
  /** Current time in epoch milliseconds. */
  now(): number;
  ids: IdSource;
  /** Aborts the run (client gone, shutdown, timeout). */
  signal?: AbortSignal;
  /** Functions PipeFunc may call, by `function_name` (none by default: code never comes from bundles). */
  functions?: ReadonlyMap<
    string,
    (contents: Readonly<Record<string, unknown>>, signal?: AbortSignal) => Promise<unknown>
  >;
  /**
   * Most children (batch items, parallel branches) running at once in one controller (default
   * {@link DEFAULT_BATCH_CONCURRENCY}; `BATCH_MAX_PARALLEL`), in-process or fanned out.
   */
  batchConcurrency?: number;
  /**
   * Most pipes one run starts, its fanned-out children's included (`RUN_MAX_PIPES`, docs/limits.md#pipes-per-run;
   * default 10,000, pipe-budget.ts). Unused in a dry run, which has its own bound.
   */
  maxPipes?: number;
  /**
   * Runs the children of a PipeBatch, an inline batch step or a PipeParallel as child jobs elsewhere (docs/fan-out.md);
   * in-process when absent. Only the run's own pipes fan out: a child's nested controllers run in its process.
   */
  fanOut?: FanOutPort;
  /** Renders the run's templates; on the calling thread by default (template-renderer.ts). */
  templates?: TemplateRenderer;
  /** Follows the run pipe by pipe (live progress, docs/run-events.md); none by default. */
  observer?: RunObserver;
  /**
   * Keeps the run's step checkpoints (docs/checkpoints.md): operators an earlier attempt of the same submission
   * finished
   * are replayed from it; none by default (every step runs). Unused in a dry run.
   */
  checkpoints?: StepCheckpointStore;
}

/** Default bound of concurrent batch branches (docs/runtime.md#pipebatch recommends 8–16). */
export const DEFAULT_BATCH_CONCURRENCY = 8;
