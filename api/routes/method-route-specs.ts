/**
 * What the OpenAPI document says of the catalog routes (docs/api.md#methods-catalog): their operations, parameters,
 * bodies, answers and problems. The routes themselves are served by `methods.ts`.
 */
import { EXAMPLE_BUNDLE } from '../openapi/examples.js';
import type { ProblemSpec, RouteSpec } from '../openapi/route-spec.js';
import {
  METHOD_DATA,
  METHOD_DELETION,
  METHOD_LIST,
  METHOD_PUBLISH_RESULT,
  METHOD_VERSION,
  METHOD_VERSION_LIST,
} from '../openapi/schemas/methods.js';
import {
  METHOD_LIST_QUERY,
  METHOD_PARAMS,
  type MethodLimits,
  methodRequests,
  VERSION_LIST_QUERY,
  VERSION_PARAMS,
} from '../requests/method-requests.js';

/** The problems of a route naming a method: a bad request, an unknown (or another owner's) id, an erasure. */
const BY_ID: readonly ProblemSpec[] = ['ValidationError', 'MethodNotFoundError', 'MethodBeingDeletedError'];

/** The problems of a write of a draft: the verdict it must pass, in the diagnostics pool. */
const VERDICT: readonly ProblemSpec[] = ['InvalidMethodError', 'ComputeBudgetExceededError', 'ServerBusyError'];

const WRITE_EXAMPLE = { name: 'greet', mthds: EXAMPLE_BUNDLE };

/**
 * The catalog routes, as the OpenAPI document describes them.
 * @param limits - the ceilings the request schemas check
 */
export function methodRoutes(limits: MethodLimits): RouteSpec[] {
  const bodies = methodRequests(limits);
  const data = { description: 'The method.', schema: METHOD_DATA };
  return [
    {
      method: 'get',
      path: '/v1/methods',
      operationId: 'list_methods_v1_methods_get',
      tag: 'methods',
      summary: 'List methods',
      description:
        'The caller’s methods, newest first, 50 a page by default (200 at most), with `next_cursor` to continue; `q` searches names and descriptions (docs/api.md#methods-catalog).',
      query: METHOD_LIST_QUERY,
      responses: { 200: { description: 'A page of methods.', schema: METHOD_LIST } },
      problems: ['ValidationError'],
    },
    {
      method: 'post',
      path: '/v1/methods',
      operationId: 'create_method_v1_methods_post',
      tag: 'methods',
      summary: 'Create a method',
      description:
        'Store a method, never published. Its bundle must validate as `POST /v1/validate` would call it valid, else 422 `InvalidMethodError` with the verdict.',
      body: { id: 'MethodCreate', schema: bodies.create, example: WRITE_EXAMPLE },
      responses: { 201: { description: 'The method.', schema: METHOD_DATA } },
      problems: ['ValidationError', ...VERDICT],
    },
    {
      method: 'get',
      path: '/v1/methods/{methodId}',
      operationId: 'get_method_v1_methods__method_id__get',
      tag: 'methods',
      summary: 'Get a method',
      description: 'A method: its draft, its draft digest and its latest published version.',
      params: METHOD_PARAMS,
      responses: { 200: data },
      problems: BY_ID,
    },
    {
      method: 'put',
      path: '/v1/methods/{methodId}',
      operationId: 'update_method_v1_methods__method_id__put',
      tag: 'methods',
      summary: 'Rewrite a method',
      description:
        'Rewrite a method’s name and draft; with `expected_updated_at`, only if the draft is still the one read (409 `method_update_conflict` otherwise).',
      params: METHOD_PARAMS,
      body: { id: 'MethodRewrite', schema: bodies.rewrite, example: WRITE_EXAMPLE },
      responses: { 200: data },
      problems: [...BY_ID, 'MethodUpdateConflictError', ...VERDICT],
    },
    {
      method: 'put',
      path: '/v1/methods/{methodId}/draft',
      operationId: 'write_method_draft_v1_methods__method_id__draft_put',
      tag: 'methods',
      summary: 'Write a method’s draft',
      description:
        'Write a method’s draft; with `expected_updated_at`, only if the draft is still the one read (409 `method_update_conflict` otherwise).',
      params: METHOD_PARAMS,
      body: { id: 'MethodDraftWrite', schema: bodies.draft, example: { mthds: EXAMPLE_BUNDLE } },
      responses: { 200: data },
      problems: [...BY_ID, 'MethodUpdateConflictError', ...VERDICT],
    },
    {
      method: 'patch',
      path: '/v1/methods/{methodId}',
      operationId: 'rename_method_v1_methods__method_id__patch',
      tag: 'methods',
      summary: 'Rename a method',
      description: 'Rename a method; its draft and its `updated_at` stay as they are.',
      params: METHOD_PARAMS,
      body: { id: 'MethodRename', schema: bodies.rename, example: { name: 'greet' } },
      responses: { 200: data },
      problems: BY_ID,
    },
    {
      method: 'delete',
      path: '/v1/methods/{methodId}',
      operationId: 'delete_method_v1_methods__method_id__delete',
      tag: 'methods',
      summary: 'Delete a method',
      description:
        'Claim a method’s erasure and answer at once: it is refused from then on (409 `method_being_deleted`), listed with its `deletion_state` until its rows and versions are removed.',
      params: METHOD_PARAMS,
      responses: { 202: { description: 'The erasure is claimed.', schema: METHOD_DELETION } },
      problems: BY_ID,
    },
    {
      method: 'post',
      path: '/v1/methods/{methodId}/publish',
      operationId: 'publish_method_v1_methods__method_id__publish_post',
      tag: 'methods',
      summary: 'Publish a method',
      description:
        'Publish the draft as the next version, once it validates and runs: `outcome` says `published`, `unchanged` (the latest version is this draft) or `refused` (with the verdict).',
      params: METHOD_PARAMS,
      body: { id: 'MethodPublish', schema: bodies.publish, example: {} },
      responses: { 200: { description: 'What the publish did.', schema: METHOD_PUBLISH_RESULT } },
      problems: [...BY_ID, 'MethodUpdateConflictError', 'ComputeBudgetExceededError', 'ServerBusyError'],
    },
    {
      method: 'get',
      path: '/v1/methods/{methodId}/versions',
      operationId: 'list_method_versions_v1_methods__method_id__versions_get',
      tag: 'methods',
      summary: 'List a method’s versions',
      description: 'A method’s published versions, newest first, 20 a page by default (100 at most), without sources.',
      params: METHOD_PARAMS,
      query: VERSION_LIST_QUERY,
      responses: { 200: { description: 'A page of versions.', schema: METHOD_VERSION_LIST } },
      problems: BY_ID,
    },
    {
      method: 'get',
      path: '/v1/methods/{methodId}/versions/{version}',
      operationId: 'get_method_version_v1_methods__method_id__versions__version__get',
      tag: 'methods',
      summary: 'Get a method’s version',
      description: 'One published version, with its sources; 404 `method_version_not_found` for a number it lacks.',
      params: VERSION_PARAMS,
      responses: { 200: { description: 'The version.', schema: METHOD_VERSION } },
      problems: [...BY_ID, 'MethodVersionNotFoundError'],
    },
  ];
}
