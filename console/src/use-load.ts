/**
 * Loading a page's data: the value, the error, whether it is loading, and a reload. A load started by an earlier
 * render is ignored once a newer one started, so a slow answer never overwrites a newer one.
 */
import { type DependencyList, useCallback, useEffect, useRef, useState } from 'react';

/** What {@link useLoad} returns. */
export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Load again; `quiet` keeps the current data on screen meanwhile (a live refresh). */
  reload(quiet?: boolean): void;
}

/**
 * Run `load` now and whenever `deps` change.
 * @param load - the call to make
 * @param deps - what the call depends on
 */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const run = useCallback(
    (quiet = false) => {
      const mine = ++generation.current;
      if (!quiet) {
        // new dependencies: what was shown belongs to the old ones
        setLoading(true);
        setData(undefined);
      }
      load().then(
        (value) => {
          if (mine !== generation.current) return;
          setData(value);
          setError(undefined);
          setLoading(false);
        },
        (failure: unknown) => {
          if (mine !== generation.current) return;
          setError(failure);
          setLoading(false);
        },
      );
    },
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the load depends on
    deps,
  );
  useEffect(() => run(), [run]);
  return { data, error, loading, reload: run };
}
