/**
 * The structured-output loop (docs/inference.md) of every backend: ask, read the answer (JSON text to parse, as
 * OpenAI-compatible servers and Gemini give it, or the object a forced tool call carried, as Anthropic gives it),
 * validate it against the concept's schema, and re-ask with the problems listed, up to the request's retries.
 */
import { LLMStructuredOutputError } from '../errors/index.js';
import { DEFAULT_STRUCTURED_RETRIES, type ObjectGeneration, type ObjectRequest, type TokenUsage } from './types.js';

function parseJsonAnswer(text: string): { value?: unknown; problem?: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { problem: `the answer is not valid JSON (${(error as Error).message})` };
  }
}

/**
 * The correction of a text answer: the problems listed, then the request to answer again with JSON only.
 * @param schemaName - the concept's schema name
 * @param problems - what is wrong with the answer
 */
export function correctionPrompt(schemaName: string, problems: readonly string[]): string {
  return `Your answer does not match the required JSON schema "${schemaName}":\n${problems.map((problem) => `- ${problem}`).join('\n')}\nAnswer again with JSON only, fixing these problems.`;
}

/** One answer and its usage: the JSON text the model wrote, or the object its forced tool call carried (decoded). */
export type StructuredAnswer = { text: string; usage: TokenUsage } | { object: unknown; usage: TokenUsage };

/** How one backend asks, and how it records a rejected answer before asking again. */
export interface StructuredConversation<Answer extends StructuredAnswer> {
  /** Ask (again) with the conversation so far. */
  ask(): Promise<Answer>;
  /** Append the rejected answer and a correction listing `problems` to the conversation. */
  reject(answer: Answer, problems: readonly string[]): void;
}

/**
 * Ask until the answer is valid JSON matching the schema; usage is summed over the attempts.
 * @param request - the structured request (`maxRetries` re-asks, 3 by default)
 * @param provider - provider name for the error
 * @param model - model name for usage and the error
 * @param conversation - the backend's way of asking
 * @throws LLMStructuredOutputError (category CONTENT) when no attempt matches; whatever `ask` throws
 */
export async function askUntilValid<Answer extends StructuredAnswer>(
  request: ObjectRequest,
  provider: string,
  model: string,
  conversation: StructuredConversation<Answer>,
): Promise<ObjectGeneration> {
  const attempts = (request.maxRetries ?? DEFAULT_STRUCTURED_RETRIES) + 1;
  const usage: TokenUsage = { model, input_tokens: 0, output_tokens: 0 };
  let problems: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const answer = await conversation.ask();
    usage.model = answer.usage.model;
    usage.input_tokens += answer.usage.input_tokens;
    usage.output_tokens += answer.usage.output_tokens;
    const parsed = 'object' in answer ? { value: answer.object } : parseJsonAnswer(answer.text);
    problems = parsed.problem !== undefined ? [parsed.problem] : request.validate(parsed.value);
    if (problems.length === 0) return { object: parsed.value, usage };
    conversation.reject(answer, problems);
  }
  throw new LLMStructuredOutputError(
    `Pipe '${request.pipeCode}': the model's output never matched ${request.schemaName} after ${attempts} attempts: ${problems.join('; ')}.`,
    {
      category: 'CONTENT',
      model,
      provider,
    },
  );
}
