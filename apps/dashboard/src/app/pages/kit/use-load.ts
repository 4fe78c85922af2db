import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { messageOf } from "../../ui/errors.js";

/** What {@link useLoad} holds: the data once loaded, the error of the last load, and a reload. */
export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => Promise<void>;
  /** Replaces the data held (after a change the page made itself). */
  set: (update: (current: T | null) => T | null) => void;
}

/**
 * Loads data for a page: calls `load` on mount (and when `deps` change), keeps the last good data
 * while reloading, and turns a failure into a message to show. Answers of a superseded load are dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[] = []): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await load();
      if (mine !== generation.current) return;
      setData(value);
      setError(null);
    } catch (failure) {
      if (mine === generation.current) setError(messageOf(failure));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  const set = useCallback((update: (current: T | null) => T | null) => setData((current) => update(current)), []);
  return { data, error, loading, reload, set };
}
