/**
 * The Google Gemini backend (native `generateContent` wire through the official `@google/genai` SDK; sdk `google` of
 * docs/inference.md#backends). Structured output uses `responseMimeType: application/json` with `responseJsonSchema`,
 * and an
 * answer that fails validation is re-asked with the problems listed (docs/runtime.md#structured-output). Images and
 * documents given as
 * `data:` URLs travel inline; http(s) URLs as file references (docs/inference.md#provider-wire-formats).
 */
import type {
  Content,
  FinishReason,
  GenerateContentConfig,
  GenerateContentResponse,
  GoogleGenAI,
  Part,
} from '@google/genai';
import { LLMCompletionError, LLMCompletionRefusedError, LLMCompletionTruncatedError } from '../errors/index.js';
import { parseBase64DataUrl } from './data-url.js';
import { toGeminiError } from './gemini-errors.js';
import { askUntilValid, correctionPrompt } from './structured-answer.js';
import type { BackendCall, InferenceBackend, LlmRequest, ObjectRequest, TokenUsage } from './types.js';

/** Options of the Gemini backend. */
export interface GeminiBackendOptions {
  apiKey: string;
  /** API root, e.g. `http://127.0.0.1:8080`; Google's by default. */
  baseUrl?: string;
  /** Model of calls that name none. */
  model: string;
  /** Timeout of one call in ms (default 120000). */
  timeoutMs?: number;
  /** Retries of a failed call, with the SDK's exponential backoff (default 2). */
  maxRetries?: number;
  /** The SDK's `fetch` (the rate limits' pausing fetch: docs/inference.md#rate-limits); the global one by default. */
  fetch?: typeof fetch;
}

/** Finish reasons of a refused answer (values of the SDK's `FinishReason`). */
const REFUSALS: ReadonlySet<string> = new Set<`${FinishReason}`>([
  'SAFETY',
  'RECITATION',
  'PROHIBITED_CONTENT',
  'BLOCKLIST',
  'SPII',
]);

function mediaPart(url: string, fallbackMime: string): Part {
  const inline = parseBase64DataUrl(url);
  if (inline) return { inlineData: { mimeType: inline.mimeType, data: inline.base64 } };
  return { fileData: { fileUri: url, mimeType: fallbackMime } };
}

/** The user turn: images, then documents, then the prompt text (docs/runtime.md#images-and-documents). */
function userTurn(request: LlmRequest): Content {
  const parts: Part[] = [
    ...(request.images ?? []).map((image) => mediaPart(image.url, image.mime_type ?? 'image/png')),
    ...(request.documents ?? []).map((document) => mediaPart(document.url, document.mime_type ?? 'application/pdf')),
    { text: request.userPrompt },
  ];
  return { role: 'user', parts };
}

function answerOf(
  response: GenerateContentResponse,
  model: string,
  pipeCode: string,
): { text: string; usage: TokenUsage } {
  const options = { model, provider: 'google', category: 'CONTENT' as const };
  if (response.promptFeedback?.blockReason)
    throw new LLMCompletionRefusedError(
      `Pipe '${pipeCode}': the prompt was blocked (${response.promptFeedback.blockReason}).`,
      options,
    );
  const candidate = response.candidates?.[0];
  if (!candidate)
    throw new LLMCompletionError(`Pipe '${pipeCode}': the provider returned no candidate.`, {
      ...options,
      category: 'AMBIGUOUS',
    });
  if (candidate.finishReason === 'MAX_TOKENS')
    throw new LLMCompletionTruncatedError(
      `Pipe '${pipeCode}': the completion stopped at the token limit; raise max_tokens or shorten the input.`,
      options,
    );
  if (candidate.finishReason && REFUSALS.has(candidate.finishReason))
    throw new LLMCompletionRefusedError(`Pipe '${pipeCode}': the model refused (${candidate.finishReason}).`, options);
  const text = (candidate.content?.parts ?? [])
    .flatMap((part) => (typeof part.text === 'string' && !part.thought ? [part.text] : []))
    .join('');
  const usage = {
    model: response.modelVersion || model,
    input_tokens: response.usageMetadata?.promptTokenCount ?? 0,
    output_tokens: response.usageMetadata?.candidatesTokenCount ?? 0,
  };
  return { text, usage };
}

/**
 * Create the backend. The SDK is loaded on the first call, so a process that never calls this provider never holds it.
 * @param options - key, API root, default model and limits
 */
export function createGeminiBackend(options: GeminiBackendOptions): InferenceBackend {
  let sdkClient: Promise<GoogleGenAI> | undefined;
  const client = (): Promise<GoogleGenAI> =>
    (sdkClient ??= import('@google/genai').then(
      ({ GoogleGenAI: GoogleGenAISdk }) =>
        new GoogleGenAISdk({
          apiKey: options.apiKey,
          apiVersion: 'v1beta',
          httpOptions: {
            ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
            timeout: options.timeoutMs ?? 120_000,
            retryOptions: { attempts: (options.maxRetries ?? 2) + 1 },
            ...(options.fetch ? { fetch: options.fetch } : {}),
          },
        }),
    ));

  async function generate(
    request: LlmRequest,
    call: BackendCall | undefined,
    contents: Content[],
    structured?: Record<string, unknown>,
  ) {
    const model = request.modelId ?? options.model;
    const config: GenerateContentConfig = {
      ...(request.systemPrompt ? { systemInstruction: request.systemPrompt } : {}),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxTokens === undefined ? {} : { maxOutputTokens: request.maxTokens }),
      ...(structured ? { responseMimeType: 'application/json', responseJsonSchema: structured } : {}),
      ...(request.signal ? { abortSignal: request.signal } : {}),
      ...(call ? { httpOptions: { headers: { ...call.headers } } } : {}),
    };
    let response: GenerateContentResponse;
    try {
      response = await (await client()).models.generateContent({ model, contents, config });
    } catch (error) {
      throw toGeminiError(error, model, request.pipeCode);
    }
    return answerOf(response, model, request.pipeCode);
  }

  return {
    name: 'google',
    isMock: false,
    generateText(request, call) {
      return generate(request, call, [userTurn(request)]);
    },
    generateObject(request: ObjectRequest, call) {
      const contents = [userTurn(request)];
      return askUntilValid(request, 'google', request.modelId ?? options.model, {
        ask: () => generate(request, call, contents, request.jsonSchema),
        reject: (answer, problems) =>
          contents.push(
            { role: 'model', parts: [{ text: answer.text }] },
            { role: 'user', parts: [{ text: correctionPrompt(request.schemaName, problems) }] },
          ),
      });
    },
  };
}
