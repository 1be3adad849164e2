/**
 * The example bundle of the OpenAPI document's request examples: what "Try it out" on the reference page sends by
 * default, so every example runs as is (the mock inference answers it offline).
 */

/** One PipeLLM greeting a name (domain `greet`, main pipe `greet_person`, input `name`: Text → Text). */
export const EXAMPLE_BUNDLE = `domain = "greet"
description = "Greetings"
main_pipe = "greet_person"

[pipe.greet_person]
type = "PipeLLM"
description = "Greet a person"
inputs = { name = "Text" }
output = "Text"
prompt = "Say hello to $name."
`;

/** The inputs of {@link EXAMPLE_BUNDLE}'s main pipe. */
export const EXAMPLE_INPUTS = { name: 'Ada' };
