import type { BrowserSourceBootstrap } from "../bootstrap.js";

/** Longest a speech request may take (synthesis of a long text on a busy server included). */
const SPEECH_TIMEOUT_MS = 30_000;

/** The read-aloud options of an alerts source as the page needs them (`settings.tts`). */
export interface SpeechOptions {
  enabled: boolean;
  types: readonly string[];
  volume: number;
}

/** Reads `browser_source.settings.tts` of the config; anything unreadable means off. */
export function readSpeechOptions(settings: unknown): SpeechOptions {
  const tts = settings !== null && typeof settings === "object" ? (settings as Record<string, unknown>).tts : null;
  if (tts === null || typeof tts !== "object") return { enabled: false, types: [], volume: 80 };
  const record = tts as Record<string, unknown>;
  const types = record.types !== null && typeof record.types === "object" ? Object.keys(record.types) : [];
  const volume = typeof record.volume === "number" && record.volume >= 0 && record.volume <= 100 ? record.volume : 80;
  return { enabled: record.enabled === true, types, volume };
}

/**
 * Reads alert messages aloud on the alerts page: asks the server for the speech of an alert (moderated
 * and synthesised there), plays it, and reports on the root element (`data-speech`: what the server
 * answered, `data-speech-text`, `data-speech-duration` in ms as the browser decoded it). "Skip speech"
 * stops the message being read; the alert itself goes on.
 */
export class SpeechReader {
  readonly #bootstrap: BrowserSourceBootstrap;
  readonly #root: HTMLElement;
  #skip: (() => void) | null = null;
  #chain: Promise<void> = Promise.resolve();

  constructor(bootstrap: BrowserSourceBootstrap, root: HTMLElement) {
    this.#bootstrap = bootstrap;
    this.#root = root;
  }

  /** Reads the alert's message (when the options read its type); resolves when done, skipped or nothing to read. */
  read(notificationId: string, type: string, options: SpeechOptions, sounds: boolean, signal?: AbortSignal): Promise<void> {
    if (!options.enabled || !options.types.includes(type) || !sounds) return Promise.resolve();
    const run = this.#chain.then(() => this.#read(notificationId, options.volume, signal));
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /** Reads a message approved in the dashboard (its type was checked when it was held). */
  readApproved(notificationId: string, options: SpeechOptions, sounds: boolean): Promise<void> {
    if (!options.enabled || !sounds) return Promise.resolve();
    const run = this.#chain.then(() => this.#read(notificationId, options.volume));
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /** Stops the message being read now. */
  skip(): void {
    this.#skip?.();
  }

  async #read(notificationId: string, volume: number, signal?: AbortSignal): Promise<void> {
    const url = `${this.#bootstrap.api_base}/browser-source/api/${encodeURIComponent(this.#bootstrap.access_token)}/speech/${encodeURIComponent(notificationId)}`;
    let response: Response;
    try {
      response = await fetch(url, { credentials: "omit", cache: "no-store", signal: AbortSignal.timeout(SPEECH_TIMEOUT_MS) });
    } catch {
      this.#root.dataset.speech = "unreachable";
      return;
    }
    this.#root.dataset.speech = response.headers.get("x-ovation-speech") ?? String(response.status);
    if (response.status !== 200 || signal?.aborted) return;
    const text = response.headers.get("x-ovation-speech-text");
    this.#root.dataset.speechText = text === null ? "" : decodeURIComponent(text);
    const bytes = await response.arrayBuffer();
    this.#root.dataset.speechDuration = String(await decodedDurationMs(bytes.slice(0)));
    const blobUrl = URL.createObjectURL(new Blob([bytes], { type: "audio/wav" }));
    const audio = new Audio(blobUrl);
    audio.volume = volume / 100;
    try {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.#skip = null;
          resolve();
        };
        this.#skip = () => {
          audio.pause();
          this.#root.dataset.speech = "skipped";
          done();
        };
        signal?.addEventListener("abort", () => this.#skip?.(), { once: true });
        audio.addEventListener("ended", done, { once: true });
        audio.addEventListener("error", done, { once: true });
        audio.play().catch(done);
      });
    } finally {
      URL.revokeObjectURL(blobUrl);
    }
  }
}

/** The audio's length as the browser decodes it, in ms (0 when it does not decode). */
async function decodedDurationMs(bytes: ArrayBuffer): Promise<number> {
  const Context = globalThis.OfflineAudioContext;
  if (typeof Context !== "function") return 0;
  try {
    const buffer = await new Context(1, 1, 22_050).decodeAudioData(bytes);
    return Math.round(buffer.duration * 1000);
  } catch {
    return 0;
  }
}
