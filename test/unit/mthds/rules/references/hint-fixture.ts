/** A bundle with intent hints on concepts and structure fields, right and wrong (docs/concepts.md#hints). */
import { bundle } from '../harness.js';

export const HINTED = bundle(
  'catalog',
  [
    '[concept.Tagline]\ndescription = "A tagline"\nrefines = "Text"\nhints = { intent = "label" }',
    '[concept.Score]\ndescription = "A score"\nrefines = "Number"\nhints = { intent = "prose", tone = "calm" }',
    '[concept.Product]\ndescription = "A product"\nhints = { intent = "rating" }',
    '[concept.Product.structure]',
    'name = { type = "text", description = "Name", hints = { intent = "label" } }',
    'stars = { type = "integer", description = "Stars", hints = { intent = "rating", widget = "stars" } }',
    'status = { choices = ["new", "old"], description = "Status", hints = { intent = "headline" } }',
    'launched = { type = "date", description = "Launch", hints = { intent = "quantity" } }',
  ].join('\n'),
);

/** A bundle with intent hints on expanded input slots, right and wrong (docs/concepts.md#hints). */
export const SLOTTED = bundle(
  'desk',
  [
    '[pipe.draft_reply]',
    'type = "PipeLLM"',
    'description = "Drafts a reply"',
    'output = "Text"',
    'prompt = "Reply to $letter, at most $budget words{% if tone %} in a {{ tone.text }} tone{% endif %}, tagged @?tags"',
    '[pipe.draft_reply.inputs]',
    'letter = { concept = "Text", hints = { intent = "prose" } }',
    'budget = { concept = "Number", hints = { intent = "label", size = "small" } }',
    'tone = { concept = "Text?", hints = { intent = "mood" } }',
    'tags = { concept = "Text[]", hints = { intent = "label" } }',
  ].join('\n'),
);
