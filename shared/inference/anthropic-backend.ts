/**
 * The Anthropic backend (Messages API through the official SDK). Structured output is a forced tool whose input
 * schema is the concept's JSON schema; the shared structured-output loop (`structured-answer.ts`) re-asks an answer
 * that fails validation with the problems as the tool result (docs/inference.md). `max_tokens` is required by
 * the API.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { LLMCompletionError, LLMCompletionRefusedError, LLMCompletionTruncatedError } from '../errors/index.js';
import { parseBase64DataUrl } from './data-url.js';
import { toInferenceError } from './provider-errors.js';
import { sdkRequestOptions } from './sdk-request-options.js';
import { askUntilValid } from './structured-answer.js';
import type { BackendCall, InferenceBackend, LlmRequest, ObjectRequest, TokenUsage } from './types.js';

/** Options of the Anthropic backend. */
export interface AnthropicBackendOptions {
  apiKey: string;
  baseUrl?: string;
  /** Model of calls that name none. */
  model: string;
  /** Output cap when the request gives none (the API requires one). */
  defaultMaxTokens: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** The SDK's `fetch` (the rate limits' pausing fetch: docs/inference.md#rate-limits); the global one by default. */
  fetch?: typeof fetch;
}

type Message = Anthropic.Messages.Message;
type MessageParam = Anthropic.Messages.MessageParam;

function checkStop(message: Message, model: string, pipeCode: string): void {
  const options = { model, provider: 'anthropic', category: 'CONTENT' as const };
  if (message.stop_reason === 'max_tokens')
    throw new LLMCompletionTruncatedError(
      `Pipe '${pipeCode}': the completion stopped at max_tokens; raise it or shorten the input.`,
      options,
    );
  if (message.stop_reason === 'refusal')
    throw new LLMCompletionRefusedError(`Pipe '${pipeCode}': the model refused.`, options);
}

/**
 * The user message blocks: image and document blocks first, then the text (docs/runtime.md#images-and-documents,
 * docs/inference.md#provider-wire-formats). `data:` URLs
 * are sent as base64 sources, http(s) URLs as URL sources.
 */
function userContent(request: LlmRequest): MessageParam['content'] {
  const images = request.images ?? [];
  const documents = request.documents ?? [];
  if (images.length === 0 && documents.length === 0) return request.userPrompt;
  const blocks: Anthropic.Messages.ContentBlockParam[] = [];
  for (const image of images) {
    const inline = parseBase64DataUrl(image.url);
    blocks.push({
      type: 'image',
      source: inline
        ? { type: 'base64', media_type: inline.mimeType as 'image/png', data: inline.base64 }
        : { type: 'url', url: image.url },
    });
  }
  for (const document of documents) {
    const inline = parseBase64DataUrl(document.url);
    blocks.push({
      type: 'document',
      source: inline
        ? { type: 'base64', media_type: 'application/pdf', data: inline.base64 }
        : { type: 'url', url: document.url },
    });
  }
  blocks.push({ type: 'text', text: request.userPrompt });
  return blocks;
}

function usageOf(message: Message, model: string): TokenUsage {
  return { model, input_tokens: message.usage.input_tokens, output_tokens: message.usage.output_tokens };
}

/**
 * Create the backend. The SDK is loaded on the first call, so a process that never calls this provider never holds it.
 * @param options - key, base URL, default model and limits
 */
export function createAnthropicBackend(options: AnthropicBackendOptions): InferenceBackend {
  let sdkClient: Promise<Anthropic> | undefined;
  const client = (): Promise<Anthropic> =>
    (sdkClient ??= import('@anthropic-ai/sdk').then(
      ({ default: AnthropicSdk }) =>
        new AnthropicSdk({
          apiKey: options.apiKey,
          baseURL: options.baseUrl ?? null,
          timeout: options.timeoutMs ?? 120_000,
          maxRetries: options.maxRetries ?? 2,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        }),
    ));

  async function send(
    request: LlmRequest,
    call: BackendCall | undefined,
    messages: MessageParam[],
    tool?: { name: string; schema: Record<string, unknown> },
  ): Promise<Message> {
    const model = request.modelId ?? options.model;
    try {
      return await (await client()).messages.create(
        {
          model,
          max_tokens: request.maxTokens ?? options.defaultMaxTokens,
          messages,
          ...(request.systemPrompt ? { system: request.systemPrompt } : {}),
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          ...(tool
            ? {
                tools: [
                  {
                    name: tool.name,
                    description: `Output the ${tool.name} object`,
                    input_schema: tool.schema as Anthropic.Messages.Tool.InputSchema,
                  },
                ],
                tool_choice: { type: 'tool' as const, name: tool.name },
              }
            : {}),
        },
        sdkRequestOptions(request, call),
      );
    } catch (error) {
      throw toInferenceError(error, model, request.pipeCode, 'anthropic');
    }
  }

  return {
    name: 'anthropic',
    isMock: false,
    async generateText(request, call) {
      const model = request.modelId ?? options.model;
      const message = await send(request, call, [{ role: 'user', content: userContent(request) }]);
      checkStop(message, model, request.pipeCode);
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      return { text, usage: usageOf(message, model) };
    },
    generateObject(request: ObjectRequest, tagged) {
      const model = request.modelId ?? options.model;
      const tool = {
        name: request.schemaName.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64),
        schema: request.jsonSchema,
      };
      const messages: MessageParam[] = [{ role: 'user', content: userContent(request) }];
      return askUntilValid(request, 'anthropic', model, {
        async ask() {
          const message = await send(request, tagged, messages, tool);
          checkStop(message, model, request.pipeCode);
          const call = message.content.find(
            (block): block is Anthropic.Messages.ToolUseBlock => block.type === 'tool_use',
          );
          if (!call)
            throw new LLMCompletionError(
              `Pipe '${request.pipeCode}': the model answered without calling the ${tool.name} tool.`,
              { category: 'AMBIGUOUS', model, provider: 'anthropic' },
            );
          return { object: call.input, usage: usageOf(message, model), content: message.content, toolUseId: call.id };
        },
        reject(answer, problems) {
          messages.push(
            { role: 'assistant', content: answer.content },
            {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: answer.toolUseId,
                  is_error: true,
                  content: `The object does not match the schema:\n${problems.map((problem) => `- ${problem}`).join('\n')}\nCall the tool again with a corrected object.`,
                },
              ],
            },
          );
        },
      });
    },
  };
}
