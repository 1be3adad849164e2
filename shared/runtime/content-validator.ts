/**
 * Validation of content against a concept's JSON schema (ajv, draft 2020-12), with compiled validators cached per
 * concept for the life of a library.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { LRUCache } from 'lru-cache';
import type { Concept, Library } from '../mthds/index.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** One validator compiler for the process; compiled schemas are shared by their JSON text. */
const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
/** Compiled schemas kept, by JSON text (the least recently used dropped first). */
const compiledBySchema = new LRUCache<string, ValidateFunction>({ max: 1000 });

function compiledFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiledBySchema.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiledBySchema.set(key, validate);
  }
  return validate;
}

/** Validates content items of concepts of one library. */
export class ContentValidator {
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly library: Library) {}

  /**
   * Problems with one content item of a concept.
   * @param concept - the expected concept
   * @param value - a JSON value
   * @returns sentences naming the path and the rule broken; empty when valid
   */
  problems(concept: Concept, value: unknown): string[] {
    const validate = this.validatorFor(concept);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`);
  }

  /**
   * The JSON schema of one item of the concept (as the library builds it).
   * @param concept - a concept of the library
   */
  schemaOf(concept: Concept): Record<string, unknown> {
    return this.library.contentSchema(concept);
  }

  private validatorFor(concept: Concept): ValidateFunction {
    let validate = this.compiled.get(concept.ref);
    if (!validate) {
      validate = compiledFor(this.schemaOf(concept));
      this.compiled.set(concept.ref, validate);
    }
    return validate;
  }
}

const validators = new WeakMap<Library, ContentValidator>();

/**
 * The validator of a library, shared by every run on it (compiled schemas are reused).
 * @param library - a loaded library
 */
export function validatorFor(library: Library): ContentValidator {
  let validator = validators.get(library);
  if (!validator) {
    validator = new ContentValidator(library);
    validators.set(library, validator);
  }
  return validator;
}
