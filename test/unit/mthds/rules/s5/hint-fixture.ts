/** A bundle with intent hints on concepts and structure fields, right and wrong (LANGUAGE-DELTA §7). */
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
