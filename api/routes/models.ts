/**
 * `GET /v1/models` (spec §4.2; API-CONTRACT.md §3.4): the model deck — presets as `models`, and aliases and waterfalls
 * keyed by category — optionally for one `type` (`llm`, `extract`, `img_gen`, `search`).
 */
import { Router } from 'express';
import { z } from 'zod';
import { InvalidModelCategory, ValidationError } from '../../shared/errors/index.js';
import { MODEL_CATEGORIES, type ModelCategory, type ModelDeck } from '../../shared/inference/index.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { MODEL_DECK } from '../openapi/schemas/service.js';
import { sendJson } from '../send-json.js';

/** `GET /v1/models`, as the OpenAPI document describes it. */
export const MODELS_ROUTE: RouteSpec = {
  method: 'get',
  path: '/v1/models',
  operationId: 'get_models_v1_models_get',
  tag: 'agent',
  summary: 'Get Models',
  description: 'The model deck: presets as `models`, aliases and waterfalls by category (docs/inference.md).',
  protocol: true,
  query: z.object({
    type: z.enum(MODEL_CATEGORIES).optional().meta({ description: 'Only this category (one value).' }),
  }),
  responses: { 200: { description: 'The model deck.', schema: MODEL_DECK } },
  problems: ['InvalidModelCategory', 'ValidationError'],
};

/**
 * Router serving `GET /v1/models`.
 * @param deck - the model deck of the inference configuration
 */
export function modelsRouter(deck: ModelDeck): Router {
  const router = Router();
  router.get(MODELS_ROUTE.path, (req, res) => {
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
