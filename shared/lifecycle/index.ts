/**
 * Public surface of `shared/lifecycle`: what the entry points (`api/server.ts`, `worker/main.ts`) share about the
 * life and death of a process — the list of resources to release, shutdown on signals with a hard deadline, the
 * fatal-error policy and the crash context it logs (docs/run-failures.md).
 */
export { ResourceStack, type Release, type ReleaseFailure } from './resource-stack.js';
export { CLOSE_ALLOWANCE_MS, shutdownOnSignals, type ShutdownOptions } from './shutdown.js';
export { installFatalErrorPolicy } from './fatal-errors.js';
export { withCrashContext, type CrashContext } from './crash-context.js';
export { settleWithin } from './settle-within.js';
