/**
 * What the page reports on its root element, for people debugging in OBS and for browser tests:
 * `data-state` (loading, connecting, connected, disconnected, error), `data-queue` (idle, playing,
 * paused), `data-pending`, `data-current` (notification id on screen), `data-shown` (alerts shown
 * so far), `data-config-version` (configs loaded so far) and `data-error` (last problem, as text).
 */
export type PageState = "loading" | "connecting" | "connected" | "disconnected" | "error";

/** Writes the page state attributes on the root element. */
export class PageStatus {
  readonly #root: HTMLElement;
  #shown = 0;
  #configs = 0;

  constructor(root: HTMLElement) {
    this.#root = root;
  }

  /** Sets `data-state`. */
  state(state: PageState): void {
    this.#root.dataset.state = state;
  }

  /** Records a problem the page recovered from (or not) as `data-error`. */
  error(message: string): void {
    this.#root.dataset.error = message.slice(0, 300);
  }

  /** Mirrors the queue snapshot. */
  queue(snapshot: { state: string; pending: number; current: string | null }): void {
    this.#root.dataset.queue = snapshot.state;
    this.#root.dataset.pending = String(snapshot.pending);
    this.#root.dataset.current = snapshot.current ?? "";
  }

  /** Counts an alert that finished on screen. */
  shown(): void {
    this.#shown += 1;
    this.#root.dataset.shown = String(this.#shown);
  }

  /** Counts a configuration load. */
  configLoaded(): void {
    this.#configs += 1;
    this.#root.dataset.configVersion = String(this.#configs);
  }
}
