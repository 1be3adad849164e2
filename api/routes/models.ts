/**
 * `GET /v1/models` (spec §4.2; docs/api.md#get-v1models): the model deck — presets as `models`, and aliases and
 * waterfalls keyed by category — optionally for one `type` (`llm`, `extract`, `img_gen`, `search`, or protocol 0.7.0's
 * `judgment`).
 */
import { Router } from 'express';
import { z } from 'zod';
import { InvalidModelCategory, ValidationError } from '../../shared/errors/index.js';
import { MODEL_CATEGORIES, type ModelCategory, type ModelDeck } from '../../shared/inference/index.js';
import type { RouteSpec } from '../openapi/route-spec.js';
import { MODEL_DECK } from '../openapi/schemas/service.js';
import { parseRequest, refuseAs } from '../request-schema.js';
import { sendJson } from '../send-json.js';

/**
 * `type`: one model category. A repeated parameter (an array) is a ValidationError, a value that is not a category
 * `InvalidModelCategory` (the reference's answer, kept under protocol 0.7.0: a client tolerates unknown categories in
 * the listing, a server still refuses to filter by one); the document shows the categories.
 */
const MODEL_TYPE = z
  .unknown()
  .superRefine((type, context) => {
    if (Array.isArray(type)) refuseAs(context, ValidationError, 'The `type` query parameter accepts a single value');
    else if (!MODEL_CATEGORIES.includes(type as ModelCategory))
      refuseAs(
        context,
        InvalidModelCategory,
        `Invalid model category. Valid values: ${[...MODEL_CATEGORIES].sort().join(', ')}`,
      );
  })
  .transform((type) => type as ModelCategory);

/** The query of `GET /v1/models`: what the handler parses and the document shows. */
const MODELS_QUERY = z.object({
  type: MODEL_TYPE.optional().meta({
    description: 'Only this category (one value).',
    type: 'string',
    enum: [...MODEL_CATEGORIES],
  }),
});

/** `GET /v1/models`, as the OpenAPI document describes it. */
export const MODELS_ROUTE: RouteSpec = {
  method: 'get',
  path: '/v1/models',
  operationId: 'get_models_v1_models_get',
  tag: 'agent',
  summary: 'Get Models',
  description: 'The model deck: presets as `models`, aliases and waterfalls by category (docs/inference.md).',
  protocol: true,
  query: MODELS_QUERY,
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
    sendJson(res, 200, deck.listing(parseRequest(MODELS_QUERY, req.query, 'query').type));
  });
  return router;
}
