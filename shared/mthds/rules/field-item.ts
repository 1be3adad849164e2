/**
 * Builds the item of a pipe-field rule (LANGUAGE.md §6 S4).
 */
import type { ValidationErrorItem } from '../../errors/index.js';
import type { Pipe } from '../concept.js';
import { aboutPipe } from './rule.js';

/**
 * An item about one field of a pipe.
 * @param pipe - the pipe
 * @param field - the field path inside the pipe table
 * @param message - what is wrong and what is allowed
 * @param errorType - the item's `error_type`
 */
export function pipeFieldItem(pipe: Pipe, field: string, message: string, errorType = 'invalid_pipe_field'): ValidationErrorItem {
  return {
    category: 'blueprint_validation',
    message: `Pipe '${pipe.code}', ${field}: ${message}`,
    error_type: errorType,
    ...aboutPipe(pipe),
    field_path: `pipe.${pipe.code}.${field}`,
    field_name: field.split('.').pop()!.replace(/\[\d+\]$/, ''),
  };
}
