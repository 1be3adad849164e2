/**
 * The run budget (`max_cost_usd`, docs/inference.md#run-budget): an inference-port decorator that checks each call
 * before it is made. A call goes ahead only when the cost spent so far, plus the estimates of the calls under way,
 * plus this call's estimate stay within the budget; otherwise, or when the serving model has no price for the call,
 * the call is not made and the run stops with {@link RunBudgetExceededError}.
 *
 * Estimate of one call, in USD at the serving model's prices (the backend's `quote`):
 * - LLM call (`text`, `object`): input tokens estimated as ⌈characters / 4⌉ of the system and user prompts (and, for
 *   `object`, of the JSON schema) at the input price, plus the output bound (the call's `max_tokens`, else the
 *   preset's, else the model spec's, else {@link DEFAULT_OUTPUT_TOKEN_ESTIMATE}) at the output price. Images and
 *   documents attached to the prompt are not estimated; a structured answer re-asked after an invalid one is one call.
 * - image generation: `image` × images asked, plus (for a model priced by tokens) the prompt's tokens at the input
 *   price and {@link DEFAULT_OUTPUT_TOKEN_ESTIMATE} per image at the output price.
 * - search: the `search` price.
 * Once a call returns, its estimate is replaced by its reported cost.
 */
import { RunBudgetExceededError } from '../errors/index.js';
import type { CallQuote, InferencePort, QuotedCall, QuoteRequest, TokenUsage } from './ports.js';

/** Output tokens assumed for a call whose output has no bound (and per generated image of a token-priced model). */
export const DEFAULT_OUTPUT_TOKEN_ESTIMATE = 4096;

const PER_MILLION = 1_000_000;
const CHARACTERS_PER_TOKEN = 4;

/**
 * Input tokens of a prompt, estimated from its characters.
 * @param texts - the prompt's texts
 */
export function estimateInputTokens(texts: readonly (string | undefined)[]): number {
  const characters = texts.reduce((sum, text) => sum + (text?.length ?? 0), 0);
  return Math.ceil(characters / CHARACTERS_PER_TOKEN);
}

/** A call about to be made, as the budget sees it. */
interface PlannedCall {
  call: QuotedCall;
  pipeCode: string;
  quote: QuoteRequest;
  inputTokens: number;
  /** Images asked (`images` calls). */
  images: number;
}

const CALL_NAMES: Record<QuotedCall, string> = {
  text: 'LLM',
  object: 'LLM',
  images: 'image generation',
  search: 'search',
};

function usd(amount: number): string {
  return `${Number(amount.toPrecision(6))} USD`;
}

/**
 * The estimate of a call at its quote, or null when the model has no price for it.
 * @param planned - the call
 * @param quote - the serving model's prices
 */
export function estimateCallCost(
  planned: Pick<PlannedCall, 'call' | 'inputTokens' | 'images'>,
  quote: CallQuote,
): number | null {
  const tokens =
    quote.input === null || quote.output === null
      ? null
      : (planned.inputTokens * quote.input +
          (planned.call === 'images'
            ? planned.images * DEFAULT_OUTPUT_TOKEN_ESTIMATE
            : (quote.maxOutputTokens ?? DEFAULT_OUTPUT_TOKEN_ESTIMATE)) *
            quote.output) /
        PER_MILLION;
  if (planned.call === 'search') return quote.search;
  if (planned.call !== 'images') return tokens;
  if (quote.image === null) return tokens;
  return quote.image * planned.images + (tokens ?? 0);
}

/**
 * Wrap a port so every call is checked against the run's budget.
 * @param inference - the run's inference port
 * @param maxCostUsd - the budget in USD (> 0)
 * @param spentElsewhere - USD the run spent outside this port, read at each check: the calls of the steps it replayed
 *   from their checkpoints (step-checkpoints.ts), made by an earlier attempt; 0 by default
 * @returns the checked port; its calls throw RunBudgetExceededError (422, not retryable) before calling the model
 *   when the call would exceed the budget or its model has no price
 */
export function budgeted(
  inference: InferencePort,
  maxCostUsd: number,
  spentElsewhere: () => number = () => 0,
): InferencePort {
  let spentHere = 0;
  let reserved = 0;
  const checked = async <T extends { usage: TokenUsage }>(planned: PlannedCall, call: () => Promise<T>): Promise<T> => {
    const quote = inference.quote?.(planned.quote);
    const estimate = quote ? estimateCallCost(planned, quote) : null;
    const model = quote?.model ?? planned.quote.modelRef ?? 'the default model';
    if (estimate === null)
      throw new RunBudgetExceededError(
        `The run has a budget (max_cost_usd = ${usd(maxCostUsd)}) but model '${model}' has no price for ${CALL_NAMES[planned.call]} calls, so the call of pipe '${planned.pipeCode}' cannot be checked against it and was not made. Give the model its costs in the inference configuration (docs/inference.md#prices) or run without max_cost_usd.`,
        { retryable: false, model },
      );
    const spent = spentHere + spentElsewhere();
    if (spent + reserved + estimate > maxCostUsd)
      throw new RunBudgetExceededError(
        `The run's budget max_cost_usd = ${usd(maxCostUsd)} would be exceeded: ${usd(spent)} spent so far${reserved > 0 ? ` and ${usd(reserved)} reserved by calls under way` : ''}, and the next ${CALL_NAMES[planned.call]} call of pipe '${planned.pipeCode}' to model '${model}' may cost up to ${usd(estimate)} (docs/inference.md#run-budget). The call was not made. Raise max_cost_usd, or lower the pipe's max_tokens.`,
        { retryable: false, model },
      );
    reserved += estimate;
    try {
      const result = await call();
      spentHere += result.usage.cost ?? estimate;
      return result;
    } finally {
      reserved -= estimate;
    }
  };
  return {
    name: inference.name,
    isMock: inference.isMock,
    generateText: (request) =>
      checked(
        {
          call: 'text',
          pipeCode: request.pipeCode,
          quote: quoteRequest('text', request.modelRef, request.maxTokens),
          inputTokens: estimateInputTokens([request.systemPrompt, request.userPrompt]),
          images: 0,
        },
        () => inference.generateText(request),
      ),
    generateObject: (request) =>
      checked(
        {
          call: 'object',
          pipeCode: request.pipeCode,
          quote: quoteRequest('object', request.modelRef, request.maxTokens),
          inputTokens: estimateInputTokens([
            request.systemPrompt,
            request.userPrompt,
            JSON.stringify(request.jsonSchema),
          ]),
          images: 0,
        },
        () => inference.generateObject(request),
      ),
    ...(inference.generateImages
      ? {
          generateImages: (request) =>
            checked(
              {
                call: 'images',
                pipeCode: request.pipeCode,
                quote: quoteRequest('images', request.modelRef),
                inputTokens: estimateInputTokens([request.prompt, request.negativePrompt]),
                images: request.count,
              },
              () => inference.generateImages!(request),
            ),
        }
      : {}),
    ...(inference.search
      ? {
          search: (request) =>
            checked(
              {
                call: 'search',
                pipeCode: request.pipeCode,
                quote: quoteRequest('search', request.modelRef),
                inputTokens: 0,
                images: 0,
              },
              () => inference.search!(request),
            ),
        }
      : {}),
    ...(inference.quote ? { quote: (request) => inference.quote!(request) } : {}),
  };
}

function quoteRequest(call: QuotedCall, modelRef?: string, maxTokens?: number): QuoteRequest {
  return { call, ...(modelRef !== undefined ? { modelRef } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) };
}
