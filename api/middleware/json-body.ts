/**
 * JSON body parsing with problem-document errors. Any content type is read as JSON (a `curl -d` without a
 * `Content-Type` still works); bodies over the size limit are 413; bodies nested deeper than `MAX_JSON_DEPTH` and
 * malformed ones are 422, before any handler runs (spec §8, docs/limits.md).
 */
import express, { type RequestHandler } from 'express';
import { InvalidJSON, PayloadTooLarge, ValidationError } from '../../shared/errors/index.js';
import { payloadTooLargeDetail } from './body-size-guard.js';
import { jsonDepthExceeds } from './json-depth.js';

/**
 * Which error a malformed body gives: the run routes answer `InvalidJSON`, typed-body routes `ValidationError`
 * (API-CONTRACT.md §1.8, §3.5).
 */
export type BodyKind = 'run' | 'typed';

/** The limits of a JSON body. */
export interface JsonBodyLimits {
  /** Largest body, in bytes (`MAX_REQUEST_BODY_MIB` × 1 MiB). */
  maxBodyBytes: number;
  /** Deepest nesting of arrays and objects (`MAX_JSON_DEPTH`); `{}` is depth 1. */
  maxJsonDepth: number;
}

interface BodyParserError {
  type?: string;
  message?: string;
  length?: number;
}

/** Raised inside the parser's `verify` hook, before `JSON.parse`, and mapped to the route's 422 below. */
class JsonDepthExceeded extends Error {}

/**
 * The detail of a body nested too deeply.
 * @param maxJsonDepth - the limit (`MAX_JSON_DEPTH`)
 */
export function jsonDepthDetail(maxJsonDepth: number): string {
  return `JSON nesting depth exceeds ${maxJsonDepth} (MAX_JSON_DEPTH)`;
}

function utf8Bytes(body: Buffer, encoding: string): Uint8Array {
  return encoding.toLowerCase() === 'utf-8' ? body : Buffer.from(new TextDecoder(encoding).decode(body), 'utf8');
}

/**
 * Build the parser.
 * @param limits - body size in bytes and nesting depth
 * @param kind - which error class a malformed or too deep body maps to
 * @throws PayloadTooLarge (413); InvalidJSON or ValidationError (422) through `next`, for a malformed body and for one
 *   nested deeper than `limits.maxJsonDepth` (detail `JSON nesting depth exceeds 64 (MAX_JSON_DEPTH)`)
 * @see spec §8, docs/limits.md
 */
export function jsonBody(limits: JsonBodyLimits, kind: BodyKind): RequestHandler {
  const parse = express.json({
    limit: limits.maxBodyBytes,
    strict: false,
    type: () => true,
    verify: (_req, _res, body, encoding) => {
      if (jsonDepthExceeds(utf8Bytes(body, encoding), limits.maxJsonDepth)) throw new JsonDepthExceeded();
    },
  });
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error === undefined) {
        next();
        return;
      }
      const failure = error as BodyParserError;
      if (error instanceof JsonDepthExceeded) {
        const detail = jsonDepthDetail(limits.maxJsonDepth);
        next(kind === 'run' ? new InvalidJSON(detail) : new ValidationError(detail));
      } else if (failure.type === 'entity.too.large') {
        next(new PayloadTooLarge(payloadTooLargeDetail(failure.length, limits.maxBodyBytes)));
      } else if (kind === 'run') {
        next(new InvalidJSON(`Request body is not valid JSON: ${failure.message ?? 'unreadable body'}`));
      } else {
        next(new ValidationError(`body: JSON decode error: ${failure.message ?? 'unreadable body'}`));
      }
    });
  };
}
