/** How long an alert waits for its image or sound before it plays without it. */
export const MEDIA_TIMEOUT_MS = 3_000;

function settleWithin<T>(ms: number, signal: AbortSignal, start: (done: (value: T) => void) => () => void, fallback: T): Promise<T> {
  return new Promise<T>((resolve) => {
    let finished = false;
    let cleanup: () => void = () => undefined;
    const done = (value: T): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      cleanup();
      resolve(value);
    };
    const onAbort = (): void => done(fallback);
    const timer = setTimeout(() => done(fallback), ms);
    signal.addEventListener("abort", onAbort);
    cleanup = start(done);
  });
}

/**
 * Loads an image; resolves with the element once it is decoded, or null when it fails, stalls past
 * `timeoutMs`, or the alert is aborted. Never rejects.
 */
export function loadImage(url: string, signal: AbortSignal, timeoutMs: number = MEDIA_TIMEOUT_MS): Promise<HTMLImageElement | null> {
  return settleWithin<HTMLImageElement | null>(
    timeoutMs,
    signal,
    (done) => {
      const image = new Image();
      image.decoding = "async";
      image.referrerPolicy = "no-referrer";
      image.onload = () => done(image);
      image.onerror = () => done(null);
      image.src = url;
      return () => {
        image.onload = null;
        image.onerror = null;
      };
    },
    null,
  );
}

/**
 * Prepares a sound; resolves with the element once enough of it is buffered to play, or null when it
 * fails, stalls past `timeoutMs`, or the alert is aborted. Never rejects.
 */
export function loadSound(url: string, volume: number, signal: AbortSignal, timeoutMs: number = MEDIA_TIMEOUT_MS): Promise<HTMLAudioElement | null> {
  return settleWithin<HTMLAudioElement | null>(
    timeoutMs,
    signal,
    (done) => {
      const audio = new Audio();
      audio.preload = "auto";
      audio.volume = Math.min(1, Math.max(0, volume));
      const ready = (): void => done(audio);
      const failed = (): void => done(null);
      audio.addEventListener("canplaythrough", ready);
      audio.addEventListener("error", failed);
      audio.src = url;
      audio.load();
      return () => {
        audio.removeEventListener("canplaythrough", ready);
        audio.removeEventListener("error", failed);
      };
    },
    null,
  );
}

/** Starts a prepared sound; a refused or failing playback is ignored (the alert shows without sound). */
export function startSound(audio: HTMLAudioElement | null): void {
  if (!audio) return;
  try {
    void audio.play().catch(() => undefined);
  } catch {
    // Old engines throw instead of rejecting; the alert goes on silently either way.
  }
}

/** Stops a sound and releases its buffer. */
export function stopSound(audio: HTMLAudioElement | null): void {
  if (!audio) return;
  audio.pause();
  audio.removeAttribute("src");
  audio.load();
}

/** Waits `ms`, or less when the signal aborts. Never rejects. */
export function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const finish = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", finish);
      resolve();
    };
    const timer = setTimeout(finish, Math.max(0, ms));
    signal.addEventListener("abort", finish);
  });
}
