/**
 * Callers of an in-process app with a control plane, for the catalog suites (docs/api.md#methods-catalog): requests
 * with a bearer token, the bootstrap admin's organizations and their API keys, and small bundles to store.
 */
import type { Express } from 'express';
import request from 'supertest';

/** A caller: each request carries its bearer token. */
export interface Caller {
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  put(path: string, body: object): request.Test;
  patch(path: string, body: object): request.Test;
  delete(path: string): request.Test;
}

/**
 * Requests as the bearer of a token.
 * @param app - the app
 * @param token - the bearer token
 */
export function callerOf(app: Express, token: string): Caller {
  const bearer = (test: request.Test) => test.set('Authorization', `Bearer ${token}`);
  return {
    get: (path) => bearer(request(app).get(path)),
    post: (path, body) =>
      body === undefined ? bearer(request(app).post(path)) : bearer(request(app).post(path)).send(body),
    put: (path, body) => bearer(request(app).put(path)).send(body),
    patch: (path, body) => bearer(request(app).patch(path)).send(body),
    delete: (path) => bearer(request(app).delete(path)),
  };
}

/**
 * A new organization and an API key of it, made by the bootstrap admin.
 * @param admin - the bootstrap admin
 * @param name - the organization's name
 * @returns the organization's id and the key's plaintext and id
 */
export async function organizationKey(
  admin: Caller,
  name: string,
): Promise<{ org: string; key: string; keyId: string }> {
  const created = await admin.post('/v1/organizations', { name }).expect(201);
  const org = created.body.org_id as string;
  const issued = await admin.post('/v1/pipelex-api-keys', { label: 'catalog', organization_id: org }).expect(201);
  return { org, key: issued.body.api_key as string, keyId: issued.body.id as string };
}

/**
 * A one-pipe bundle that validates and runs: `greet.<pipe>` turns a `name` into a greeting.
 * @param description - its top-level description
 * @param pipe - its pipe's code
 */
export function greetingBundle(description = 'Greets someone by name', pipe = 'say_hello'): string {
  return [
    'domain = "greet"',
    `description = "${description}"`,
    `main_pipe = "${pipe}"`,
    '',
    `[pipe.${pipe}]`,
    'type = "PipeLLM"',
    'description = "Greet the person"',
    'inputs = { name = "Text" }',
    'output = "Text"',
    'prompt = "Write one friendly line greeting $name."',
    '',
  ].join('\n');
}

/** A bundle that validates but does not run: its second step is a signature only. */
export const SIGNATURE_BUNDLE = [
  'domain = "notes"',
  'description = "Summarise, then shorten"',
  'main_pipe = "summarise_then_shorten"',
  '',
  '[pipe.summarise_then_shorten]',
  'type = "PipeSequence"',
  'description = "Two steps"',
  'inputs = { text = "Text" }',
  'output = "Text"',
  'steps = [{ pipe = "summarise", result = "summary" }, { pipe = "shorten", result = "short" }]',
  '',
  '[pipe.summarise]',
  'type = "PipeLLM"',
  'description = "Summarise"',
  'inputs = { text = "Text" }',
  'output = "Text"',
  'prompt = "Summarise @text"',
  '',
  '[pipe.shorten]',
  'description = "Shorten (not written yet)"',
  'inputs = { summary = "Text" }',
  'output = "Text"',
  'signature_for = "PipeLLM"',
  '',
].join('\n');

/** A bundle whose `main_pipe` names no pipe: it does not validate. */
export const INVALID_BUNDLE = 'domain = "broken"\nmain_pipe = "missing"\n';

/**
 * The members of a problem document a test pins (the rest, `instance` and `request_id`, vary by request).
 * @param body - a problem document as answered
 */
export function pinnedProblem(body: Record<string, unknown>): Record<string, unknown> {
  const { instance: _instance, request_id: _requestId, ...pinned } = body;
  return pinned;
}

/**
 * The problem every by-id route answers for an unknown method id, and for another owner's method.
 * @param id - the `mt_…` id asked for
 */
export function methodNotFound(id: string): Record<string, unknown> {
  return {
    type: '/errors/method-not-found-error/',
    title: 'Method not found',
    status: 404,
    detail: `No method '${id}' is known to this caller.`,
    error_type: 'MethodNotFoundError',
    code: 'not_found',
    error_domain: 'input',
    retryable: false,
  };
}
