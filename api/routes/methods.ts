/**
 * The methods catalog, as the hosted Pipelex API serves it (docs/api.md#methods-catalog): `GET`/`POST /v1/methods`,
 * `GET`/`PUT`/`PATCH`/`DELETE /v1/methods/{methodId}`, `PUT …/draft`, `POST …/publish`, `GET …/versions` and
 * `GET …/versions/{version}`. Served only with a control plane; what the OpenAPI document says of them is in
 * `method-route-specs.ts`.
 *
 * Every route acts on the caller's own catalog ({@link catalogOwner}): another owner's method answers exactly as an
 * unknown id, 404 `code: "not_found"`. A draft is written only when its bundle validates, as `POST /v1/validate`
 * judges it, in the diagnostics pool (422 `InvalidMethodError` with the verdict otherwise).
 */
import { type RequestHandler, type Response, Router } from 'express';
import type { CatalogChanges } from '../../shared/orchestration/index.js';
import { IMPLEMENTATION_VERSION } from '../../shared/version.js';
import {
  type MethodPublishAnswer,
  methodData,
  methodDeletionAccepted,
  methodListPage,
  methodPublished,
  methodVersionData,
  methodVersionListPage,
} from '../../shared/wire/index.js';
import { type JsonBodyLimits, jsonBody } from '../body/json-body.js';
import { answerOnce } from '../idempotency.js';
import {
  catalogAuthor,
  catalogOwner,
  type DraftJudge,
  draftJudgement,
  draftVerdict,
  type MethodCatalog,
  validDraftDescription,
} from '../method-catalog.js';
import type { Identity } from '../middleware/authenticate.js';
import { parseRequest } from '../request-schema.js';
import {
  METHOD_LIST_QUERY,
  type MethodLimits,
  methodIdOf,
  methodRequests,
  VERSION_LIST_QUERY,
  VERSION_PARAMS,
} from '../requests/method-requests.js';
import type { RunHistoryService } from '../run-history-service.js';
import { sendJson } from '../send-json.js';

/** What the catalog routes need. */
export interface MethodsRouterOptions extends JsonBodyLimits, DraftJudge {
  /** The catalog, once the control plane is open. */
  catalog: Promise<MethodCatalog>;
  /** The ceilings of a method's sources. */
  limits: MethodLimits;
  /** The control plane's services, whose idempotency keys `POST /v1/methods` honours (docs/api.md#idempotency). */
  runHistory?: Promise<RunHistoryService>;
  /** Where a publish, a rename and a deletion are announced (the MCP endpoint's tool lists, docs/mcp.md). */
  changes?: CatalogChanges;
}

/** Page sizes when the query names none. */
const DEFAULT_METHODS_PAGE = 50;
const DEFAULT_VERSIONS_PAGE = 20;

function caller(res: Response): Identity {
  return res.locals.identity as Identity;
}

/**
 * Router serving the catalog routes.
 * @param options - the catalog, the body limits, the pool and deck that judge drafts, the sources' ceilings
 */
export function methodsRouter(options: MethodsRouterOptions): Router {
  const router = Router();
  const body = jsonBody(options, 'typed', options.diagnostics);
  const bodies = methodRequests(options.limits);
  const catalog = () => options.catalog;

  router.get('/v1/methods', async (req, res) => {
    const query = parseRequest(METHOD_LIST_QUERY, req.query, 'query');
    const page = await (await catalog()).methods.list(catalogOwner(caller(res)), {
      limit: query.limit ?? DEFAULT_METHODS_PAGE,
      ...(query.q === undefined ? {} : { q: query.q }),
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    });
    sendJson(res, 200, methodListPage(page));
  });

  router.post('/v1/methods', body, async (req, res) => {
    const input = parseRequest(bodies.create, req.body);
    const description = validDraftDescription(await draftVerdict(options, input.mthds, null));
    const identity = caller(res);
    await answerOnce(req, res, options.runHistory, 'POST /v1/methods', 'long', async () => {
      const created = await (await catalog()).methods.create(
        catalogOwner(identity),
        catalogAuthor(identity),
        input.name,
        {
          mthds: input.mthds,
          description,
          ...(input.python === undefined ? {} : { python: input.python }),
          ...(input.input_data === undefined ? {} : { inputData: input.input_data }),
        },
      );
      return { status: 201, body: methodData(created) };
    });
  });

  router.get('/v1/methods/:methodId', async (req, res) => {
    const method = await (await catalog()).methods.get(catalogOwner(caller(res)), methodIdOf(req.params));
    sendJson(res, 200, methodData(method));
  });

  /** A write of the draft, with (`PUT /v1/methods/{id}`) or without (`PUT …/draft`) the name. */
  const writeDraft =
    (whole: boolean): RequestHandler =>
    async (req, res) => {
      const id = methodIdOf(req.params);
      const input = parseRequest(bodies.draft, req.body);
      const name = whole ? parseRequest(bodies.rewrite, req.body).name : undefined;
      const owner = catalogOwner(caller(res));
      const { methods } = await catalog();
      await methods.get(owner, id);
      const description = validDraftDescription(await draftVerdict(options, input.mthds, id));
      const method = await methods.writeDraft(
        owner,
        id,
        {
          mthds: input.mthds,
          description,
          ...(input.python === undefined ? {} : { python: input.python }),
          ...(input.input_data === undefined ? {} : { inputData: input.input_data }),
        },
        {
          ...(name === undefined ? {} : { name }),
          ...(input.expected_updated_at === undefined
            ? {}
            : { expectedUpdatedAt: new Date(input.expected_updated_at) }),
        },
      );
      sendJson(res, 200, methodData(method));
    };
  router.put('/v1/methods/:methodId', body, writeDraft(true));
  router.put('/v1/methods/:methodId/draft', body, writeDraft(false));

  router.patch('/v1/methods/:methodId', body, async (req, res) => {
    const id = methodIdOf(req.params);
    const { name } = parseRequest(bodies.rename, req.body);
    const owner = catalogOwner(caller(res));
    const renamed = await (await catalog()).methods.rename(owner, id, name);
    await options.changes?.announce(owner);
    sendJson(res, 200, methodData(renamed));
  });

  router.delete('/v1/methods/:methodId', async (req, res) => {
    const id = methodIdOf(req.params);
    const { erasures, erase } = await catalog();
    const owner = catalogOwner(caller(res));
    const erasure = await erasures.begin(owner, id);
    await options.changes?.announce(owner);
    sendJson(res, 202, methodDeletionAccepted(erasure));
    erase(() => erasures.erase(erasure));
  });

  router.post('/v1/methods/:methodId/publish', body, async (req, res) => {
    const id = methodIdOf(req.params);
    const input = parseRequest(bodies.publish, req.body ?? {});
    const identity = caller(res);
    const owner = catalogOwner(identity);
    const { methods, versions } = await catalog();
    const method = await methods.get(owner, id);
    const expectedUpdatedAt =
      input.expected_draft_updated_at === undefined ? undefined : new Date(input.expected_draft_updated_at);
    const { report: verdict, crateFingerprint } = await draftJudgement(options, method.mthds, id, true);
    if (!verdict.is_valid || !verdict.is_runnable) {
      const refused: MethodPublishAnswer = {
        outcome: 'refused',
        reason: verdict.is_valid ? 'not_runnable' : 'invalid',
        message: verdict.is_valid
          ? `The draft of '${id}' is valid but does not run yet: pipes ${verdict.pending_signatures.join(', ')} are signatures only.`
          : `The draft of '${id}' does not validate: ${verdict.message}`,
        validation: verdict,
        method: methodData(method),
      };
      sendJson(res, 200, refused);
      return;
    }
    const publication = await versions.publish(owner, id, {
      validatedDigest: method.draftDigest,
      ...(expectedUpdatedAt ? { expectedUpdatedAt } : {}),
      publishedBy: catalogAuthor(identity),
      runnerVersion: IMPLEMENTATION_VERSION,
      crateFingerprint,
    });
    if (publication.outcome === 'published') await options.changes?.announce(owner);
    sendJson(res, 200, methodPublished(publication));
  });

  router.get('/v1/methods/:methodId/versions', async (req, res) => {
    const id = methodIdOf(req.params);
    const query = parseRequest(VERSION_LIST_QUERY, req.query, 'query');
    const page = await (await catalog()).versions.list(catalogOwner(caller(res)), id, {
      limit: query.limit ?? DEFAULT_VERSIONS_PAGE,
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    });
    sendJson(res, 200, methodVersionListPage(page));
  });

  router.get('/v1/methods/:methodId/versions/:version', async (req, res) => {
    const id = methodIdOf(req.params);
    const { version } = parseRequest(VERSION_PARAMS, req.params, 'path');
    sendJson(res, 200, methodVersionData(await (await catalog()).versions.get(catalogOwner(caller(res)), id, version)));
  });

  return router;
}
