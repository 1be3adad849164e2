/**
 * Deployment configuration errors (500).
 */
import { MthdsError } from './mthds-error.js';

/** A required environment variable is unset at the moment it is needed (domain-less; spec §6 rule 2). */
export class EnvVarNotFoundError extends MthdsError {}
/** A configuration value is invalid or inconsistent. */
export class PipelexConfigError extends MthdsError {}
