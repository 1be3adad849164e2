/**
 * JSON body parsing with problem-document errors. Any content type is read as JSON (a `curl -d` without a
 * `Content-Type` still works); bodies over the limit are 413, malformed ones 422.
 */
import express, { type RequestHandler } from 'express';
import { InvalidJSON, PayloadTooLarge, ValidationError } from '../../shared/errors/index.js';
import { payloadTooLargeDetail } from './body-size-guard.js';

/**
 * Which error a malformed body gives: the run routes answer `InvalidJSON`, typed-body routes `ValidationError`
 * (API-CONTRACT.md §1.8, §3.5).
 */
export type BodyKind = 'run' | 'typed';

interface BodyParserError {
  type?: string;
  message?: string;
  length?: number;
}

/**
 * Build the parser.
 * @param maxBytes - body limit in bytes
 * @param kind - which error class a malformed body maps to
 * @throws PayloadTooLarge (413), InvalidJSON or ValidationError (422) through `next`
 */
export function jsonBody(maxBytes: number, kind: BodyKind): RequestHandler {
  const parse = express.json({ limit: maxBytes, strict: false, type: () => true });
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      if (error === undefined) {
        next();
        return;
      }
      const failure = error as BodyParserError;
      if (failure.type === 'entity.too.large') {
        next(new PayloadTooLarge(payloadTooLargeDetail(failure.length, maxBytes)));
      } else if (kind === 'run') {
        next(new InvalidJSON(`Request body is not valid JSON: ${failure.message ?? 'unreadable body'}`));
      } else {
        next(new ValidationError(`body: JSON decode error: ${failure.message ?? 'unreadable body'}`));
      }
    });
  };
}
