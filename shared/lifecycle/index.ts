/**
 * Public surface of `shared/lifecycle`: what the entry points (`api/server.ts`, `worker/main.ts`) share about the
 * life and death of a process — the list of resources to release, shutdown on signals with a hard deadline, the
 * fatal-error policy and the crash context it logs (docs/run-failures.md).
 */

export { type CrashContext, withCrashContext, workStarted } from './crash-context.js';
export { installFatalErrorPolicy } from './fatal-errors.js';
export { loaderOptions, siblingModule } from './module-entry.js';
export { type Release, type ReleaseFailure, ResourceStack } from './resource-stack.js';
export { settleWithin } from './settle-within.js';
export { CLOSE_ALLOWANCE_MS, type ShutdownOptions, shutdownOnSignals } from './shutdown.js';
