/**
 * Validation of content against a concept's JSON schema (ajv, draft 2020-12), with compiled validators cached per
 * concept for the life of a library.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { LRUCache } from 'lru-cache';
import type { Concept, Library } from '../mthds/index.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** A validator compiler and its compiled schemas, shared by their JSON text (the least recently used dropped first). */
interface Compiler {
  ajv: Ajv2020;
  compiled: LRUCache<string, ValidateFunction>;
}

function compilerOf(options: { useDefaults: boolean }): Compiler {
  return {
    ajv: addFormats(new Ajv2020({ allErrors: true, strict: false, ...options })),
    compiled: new LRUCache<string, ValidateFunction>({ max: 1000 }),
  };
}

/** Checks contents as they are. */
const checking = compilerOf({ useDefaults: false });
/** Checks caller inputs and fills their absent optional fields with the schema's default (null unless declared). */
const completing = compilerOf({ useDefaults: true });

function compiledFor(compiler: Compiler, schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiler.compiled.get(key);
  if (!validate) {
    validate = compiler.ajv.compile(schema);
    compiler.compiled.set(key, validate);
  }
  return validate;
}

function problemsOf(validate: ValidateFunction, value: unknown): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}`);
}

/** Validates content items of concepts of one library. */
export class ContentValidator {
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly completingCompiled = new Map<string, ValidateFunction>();

  constructor(private readonly library: Library) {}

  /**
   * Problems with one content item of a concept.
   * @param concept - the expected concept
   * @param value - a JSON value
   * @returns sentences naming the path and the rule broken; empty when valid
   */
  problems(concept: Concept, value: unknown): string[] {
    return problemsOf(this.validatorFor(concept, checking, this.compiled), value);
  }

  /**
   * Problems with one content item a caller sent, after filling each absent optional field of its structures with its
   * `default_value`, else null, as the reference's content models do (a template then reads `None`, not an undefined
   * name).
   * @param concept - the expected concept
   * @param value - a JSON value, completed in place
   * @returns sentences naming the path and the rule broken; empty when valid
   */
  completedProblems(concept: Concept, value: unknown): string[] {
    return problemsOf(this.validatorFor(concept, completing, this.completingCompiled), value);
  }

  /**
   * The JSON schema of one item of the concept (as the library builds it).
   * @param concept - a concept of the library
   */
  schemaOf(concept: Concept): Record<string, unknown> {
    return this.library.contentSchema(concept);
  }

  private validatorFor(
    concept: Concept,
    compiler: Compiler,
    compiled: Map<string, ValidateFunction>,
  ): ValidateFunction {
    let validate = compiled.get(concept.ref);
    if (!validate) {
      validate = compiledFor(compiler, this.schemaOf(concept));
      compiled.set(concept.ref, validate);
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
