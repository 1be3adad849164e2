/**
 * Worker module for a pool test: its thread fails as it loads it, before any task (piscina then emits `error` on the
 * pool, with no task to fail).
 */
throw new Error('this module fails as its thread loads it');
