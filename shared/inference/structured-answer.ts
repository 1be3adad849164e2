/**
 * The structured-output loop (RUNTIME.md §2.1.6) of backends that answer JSON as text (OpenAI-compatible, Gemini):
 * ask, parse, validate against the concept's schema, and re-ask with the problems listed, up to the request's retries.
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

function correctionPrompt(schemaName: string, problems: readonly string[]): string {
  return `Your answer does not match the required JSON schema "${schemaName}":\n${problems.map((problem) => `- ${problem}`).join('\n')}\nAnswer again with JSON only, fixing these problems.`;
}

/** How one backend asks, and how it records a rejected answer before asking again. */
export interface StructuredConversation {
  /** Ask (again) with the conversation so far; the answer text and its usage. */
  ask(): Promise<{ text: string; usage: TokenUsage }>;
  /** Append the rejected answer and the correction to the conversation. */
  reject(answer: string, correction: string): void;
}

/**
 * Ask until the answer is valid JSON matching the schema; usage is summed over the attempts.
 * @param request - the structured request (`maxRetries` re-asks, 3 by default)
 * @param provider - provider name for the error
 * @param model - model name for usage and the error
 * @param conversation - the backend's way of asking
 * @throws LLMStructuredOutputError (category CONTENT) when no attempt matches; whatever `ask` throws
 */
export async function askUntilValid(
  request: ObjectRequest,
  provider: string,
  model: string,
  conversation: StructuredConversation,
): Promise<ObjectGeneration> {
  const attempts = (request.maxRetries ?? DEFAULT_STRUCTURED_RETRIES) + 1;
  const usage: TokenUsage = { model, input_tokens: 0, output_tokens: 0 };
  let problems: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const answer = await conversation.ask();
    usage.model = answer.usage.model;
    usage.input_tokens += answer.usage.input_tokens;
    usage.output_tokens += answer.usage.output_tokens;
    const parsed = parseJsonAnswer(answer.text);
    problems = parsed.problem !== undefined ? [parsed.problem] : request.validate(parsed.value);
    if (problems.length === 0) return { object: parsed.value, usage };
    conversation.reject(answer.text, correctionPrompt(request.schemaName, problems));
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
