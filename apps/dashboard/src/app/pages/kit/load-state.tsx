import type { ComponentChildren } from "preact";
import type { Loaded } from "./use-load.js";

/**
 * The three states of loaded data in one place: a status line while the first load runs, the
 * error with a retry button, else `children(data)`. Space is kept for the status line so nothing jumps.
 */
export function LoadState<T>({ loaded, what, children }: { loaded: Loaded<T>; what: string; children: (data: T) => ComponentChildren }) {
  if (loaded.data === null) {
    if (loaded.error !== null) {
      return (
        <div class="form-errors" role="alert">
          <p>
            {what} could not be loaded: {loaded.error}
          </p>
          <button type="button" class="button secondary small" onClick={() => void loaded.reload()}>
            Try again
          </button>
        </div>
      );
    }
    return (
      <p class="muted loading-line" role="status">
        Loading {what.toLowerCase()}…
      </p>
    );
  }
  return (
    <>
      {loaded.error !== null ? (
        <p class="field-error" role="alert">
          Refreshing failed: {loaded.error}
        </p>
      ) : null}
      {children(loaded.data)}
    </>
  );
}
