/**
 * Prices of inference calls from the model specs' `costs` (docs/inference.md#prices): what a finished call cost, and
 * the prices a run budget checks a call against before it is made. All amounts are USD; token prices are per million
 * tokens, `image` per generated image, `search` per search call.
 */
import type { ModelSpec } from './config/inference-config.js';
import type { CallQuote, QuotedCall, TokenUsage } from './types.js';

/** The `costs` table of a model spec (absent: the model has no price). */
export type ModelCosts = NonNullable<ModelSpec['costs']>;

const PER_MILLION = 1_000_000;

function tokenCost(costs: ModelCosts, usage: TokenUsage): number | null {
  if (costs.input === undefined || costs.output === undefined) return null;
  return (usage.input_tokens * costs.input + usage.output_tokens * costs.output) / PER_MILLION;
}

/**
 * What one finished call cost.
 * - `text` / `object`: input and output tokens at their prices; unknown unless both prices are set.
 * - `images`: `image` × the images generated, plus the tokens at their prices when both are set (a model billed by
 *   tokens, such as `gpt-image-1`); unknown when neither is set.
 * - `search`: the `search` price; unknown when not set.
 * @param costs - the serving model's prices, undefined when it has none
 * @param call - the call's kind
 * @param usage - the call's token counts
 * @param images - images the call generated (`images` calls only)
 * @returns the cost in USD, or null when the model's price for this kind of call is unknown (never 0 for unknown)
 */
export function callCost(
  costs: ModelCosts | undefined,
  call: QuotedCall,
  usage: TokenUsage,
  images = 0,
): number | null {
  if (!costs) return null;
  if (call === 'search') return costs.search ?? null;
  if (call !== 'images') return tokenCost(costs, usage);
  const parts = [costs.image === undefined ? null : costs.image * images, tokenCost(costs, usage)].filter(
    (part): part is number => part !== null,
  );
  return parts.length === 0 ? null : parts.reduce((sum, part) => sum + part, 0);
}

/**
 * The quote of a model for a run budget.
 * @param costs - the model's prices, undefined when it has none
 * @param model - the model handle
 * @param maxOutputTokens - the call's output-token bound, null when none is set
 */
export function quoteOf(costs: ModelCosts | undefined, model: string, maxOutputTokens: number | null): CallQuote {
  return {
    model,
    input: costs?.input ?? null,
    output: costs?.output ?? null,
    image: costs?.image ?? null,
    search: costs?.search ?? null,
    maxOutputTokens,
  };
}
