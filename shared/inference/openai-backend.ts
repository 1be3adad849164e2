/**
 * The OpenAI-compatible backend (Chat Completions through the official SDK): OpenAI itself, or any compatible
 * server through `baseUrl` (Ollama, vLLM, LM Studio). Structured output uses `response_format: json_schema`, and an
 * answer that fails validation is re-asked with the problems listed (docs/runtime.md#structured-output).
 */
import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import {
  ImgGenGenerationError,
  LLMCompletionError,
  LLMCompletionRefusedError,
  LLMCompletionTruncatedError,
} from '../errors/index.js';
import { toInferenceError } from './provider-errors.js';
import { sdkRequestOptions } from './sdk-request-options.js';
import { askUntilValid, correctionPrompt } from './structured-answer.js';
import type { BackendCall, ImageRequest, InferenceBackend, LlmRequest, ObjectRequest, TokenUsage } from './types.js';

/** Options of the OpenAI-compatible backend. */
export interface OpenAiBackendOptions {
  apiKey: string;
  /** Base URL, e.g. `http://127.0.0.1:11434/v1`; the OpenAI API by default. */
  baseUrl?: string;
  /** Model of calls that name none (`request.modelId`). */
  model: string;
  /** Provider name reported in errors and usage (default `openai`). */
  provider?: string;
  /** Timeout of one call in ms (default 120000). */
  timeoutMs?: number;
  /** SDK retries of a failed call, with its backoff (default 2). */
  maxRetries?: number;
  /** The SDK's `fetch` (the rate limits' pausing fetch: docs/inference.md#rate-limits); the global one by default. */
  fetch?: typeof fetch;
}

/**
 * The user message: plain text, or text then attachments — images as `image_url` parts (detail high), documents given
 * as `data:` URLs as `file` parts, other documents as a text line with their URL (docs/runtime.md#images-and-documents,
 * docs/inference.md#provider-wire-formats).
 */
function userContent(request: LlmRequest): ChatCompletionMessageParam['content'] {
  const images = request.images ?? [];
  const documents = request.documents ?? [];
  if (images.length === 0 && documents.length === 0) return request.userPrompt;
  const parts: ChatCompletionContentPart[] = [{ type: 'text', text: request.userPrompt }];
  for (const image of images) parts.push({ type: 'image_url', image_url: { url: image.url, detail: 'high' } });
  documents.forEach((document, index) => {
    if (document.url.startsWith('data:'))
      parts.push({ type: 'file', file: { file_data: document.url, filename: `document-${index + 1}.pdf` } });
    else parts.push({ type: 'text', text: `[Document ${index + 1}]: ${document.url}` });
  });
  return parts;
}

/**
 * The image size asked of the images API: exact dimensions as `<width>x<height>`; otherwise the size of the aspect
 * ratio on the OpenAI grid (three sizes), whatever the tier (`0.5k` … `4k`), the grid having one pixel class.
 * @param aspectRatio - the pipe's `aspect_ratio`
 * @param size - the pipe's `size`
 */
function imageSize(aspectRatio: string | undefined, size: ImageRequest['size']): string {
  if (typeof size === 'object') return `${size.width}x${size.height}`;
  if (aspectRatio?.startsWith('landscape')) return '1536x1024';
  if (aspectRatio?.startsWith('portrait')) return '1024x1536';
  return '1024x1024';
}

function messagesOf(request: LlmRequest): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.systemPrompt) messages.push({ role: 'system', content: request.systemPrompt });
  messages.push({ role: 'user', content: userContent(request) } as ChatCompletionMessageParam);
  return messages;
}

function answerOf(
  completion: ChatCompletion,
  model: string,
  pipeCode: string,
  provider: string,
): { text: string; usage: TokenUsage } {
  const choice = completion.choices[0];
  const options = { model, provider };
  if (!choice)
    throw new LLMCompletionError(`Pipe '${pipeCode}': the provider returned no choice.`, {
      category: 'AMBIGUOUS',
      ...options,
    });
  if (choice.finish_reason === 'length') {
    throw new LLMCompletionTruncatedError(
      `Pipe '${pipeCode}': the completion stopped at the token limit; raise max_tokens or shorten the input.`,
      {
        category: 'CONTENT',
        ...options,
      },
    );
  }
  if (choice.finish_reason === 'content_filter' || choice.message.refusal) {
    throw new LLMCompletionRefusedError(
      `Pipe '${pipeCode}': the model refused: ${choice.message.refusal ?? 'content filter'}.`,
      {
        category: 'CONTENT',
        ...options,
      },
    );
  }
  const usage = {
    model: completion.model || model,
    input_tokens: completion.usage?.prompt_tokens ?? 0,
    output_tokens: completion.usage?.completion_tokens ?? 0,
  };
  return { text: choice.message.content ?? '', usage };
}

/**
 * Create the backend. The SDK is loaded on the first call, so a process that never calls this provider never holds it.
 * @param options - key, base URL, model, timeout and retries
 */
export function createOpenAiBackend(options: OpenAiBackendOptions): InferenceBackend {
  let sdkClient: Promise<OpenAI> | undefined;
  const client = (): Promise<OpenAI> =>
    (sdkClient ??= import('openai').then(
      ({ default: OpenAISdk }) =>
        new OpenAISdk({
          apiKey: options.apiKey,
          baseURL: options.baseUrl ?? null,
          timeout: options.timeoutMs ?? 120_000,
          maxRetries: options.maxRetries ?? 2,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }),
    ));
  const provider = options.provider ?? 'openai';

  async function complete(
    request: LlmRequest,
    call: BackendCall | undefined,
    messages: ChatCompletionMessageParam[],
    responseFormat?: OpenAI.ResponseFormatJSONSchema,
  ) {
    const model = request.modelId ?? options.model;
    try {
      const completion = await (await client()).chat.completions.create(
        {
          model,
          messages,
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          ...(request.maxTokens === undefined ? {} : { max_tokens: request.maxTokens }),
          ...(responseFormat ? { response_format: responseFormat } : {}),
        },
        sdkRequestOptions(request, call),
      );
      return answerOf(completion, model, request.pipeCode, provider);
    } catch (error) {
      throw toInferenceError(error, model, request.pipeCode, provider);
    }
  }

  return {
    name: provider,
    isMock: false,
    async generateImages(request, call) {
      const model = request.modelId ?? options.model;
      try {
        const response = await (await client()).images.generate(
          { model, prompt: request.prompt, n: request.count, size: imageSize(request.aspectRatio, request.size) },
          sdkRequestOptions(request, call),
        );
        const images = (response.data ?? []).map((image) => ({
          url: image.url ?? `data:image/png;base64,${image.b64_json ?? ''}`,
          mime_type: 'image/png',
          source_prompt: request.prompt,
          source_negative_prompt: request.negativePrompt ?? null,
        }));
        const usage = response.usage
          ? { input_tokens: response.usage.input_tokens, output_tokens: response.usage.output_tokens }
          : { input_tokens: 0, output_tokens: 0 };
        return { images, usage: { model, ...usage } };
      } catch (error) {
        throw toInferenceError(error, model, request.pipeCode, provider, ImgGenGenerationError);
      }
    },
    generateText(request, call) {
      return complete(request, call, messagesOf(request));
    },
    generateObject(request: ObjectRequest, call) {
      const messages = messagesOf(request);
      const responseFormat: OpenAI.ResponseFormatJSONSchema = {
        type: 'json_schema',
        json_schema: {
          name: request.schemaName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64),
          schema: request.jsonSchema,
          strict: false,
        },
      };
      return askUntilValid(request, provider, request.modelId ?? options.model, {
        ask: () => complete(request, call, messages, responseFormat),
        reject: (answer, problems) =>
          messages.push(
            { role: 'assistant', content: answer.text },
            { role: 'user', content: correctionPrompt(request.schemaName, problems) },
          ),
      });
    },
  };
}
