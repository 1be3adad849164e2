/**
 * `GET /v1/models` (spec §4.2; API-CONTRACT.md §3.4): the model deck — presets as `models`, and aliases and waterfalls
 * keyed by category — optionally for one `type` (`llm`, `extract`, `img_gen`, `search`).
 */
import { Router } from 'express';
import { InvalidModelCategory, ValidationError } from '../../shared/errors/index.js';
import { MODEL_CATEGORIES, type ModelCategory, type ModelDeck } from '../../shared/inference/index.js';
import { sendJson } from '../send-json.js';

/**
 * Router serving `GET /v1/models`.
 * @param deck - the model deck of the inference configuration
 */
export function modelsRouter(deck: ModelDeck): Router {
  const router = Router();
  router.get('/v1/models', (req, res) => {
    const type = req.query['type'];
    if (Array.isArray(type)) throw new ValidationError('The `type` query parameter accepts a single value');
    if (type !== undefined && !MODEL_CATEGORIES.includes(type as ModelCategory)) {
      throw new InvalidModelCategory(
        `Invalid model category. Valid values: ${[...MODEL_CATEGORIES].sort().join(', ')}`,
      );
    }
    sendJson(res, 200, deck.listing(type as ModelCategory | undefined));
  });
  return router;
}
