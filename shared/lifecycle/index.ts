/**
 * Public surface of `shared/lifecycle`: what the entry points (`api/server.ts`, `worker/main.ts`) share about the
 * life and death of a process — the list of resources to release, shutdown on signals with a hard deadline, the
 * fatal-error policy and the crash context it logs (docs/run-failures.md).
 */
export { ResourceStack, type Release, type ReleaseFailure } from './resource-stack.js';
export { CLOSE_ALLOWANCE_MS, SHUTDOWN_EXIT_CODES, shutdownOnSignals, type ShutdownOptions } from './shutdown.js';
export { FATAL_EXIT_CODE, installFatalErrorPolicy } from './fatal-errors.js';
export { currentCrashContext, withCrashContext, type CrashContext } from './crash-context.js';
export { settleWithin } from './settle-within.js';
