/** Audio a speech provider made: a WAV file (PCM) and how long it plays. */
export interface SpeechAudio {
  /** A complete RIFF/WAVE file. */
  wav: Buffer;
  /** Length of the audio in milliseconds. */
  durationMs: number;
}

/**
 * What turns text into speech (docs/tts.md). The embedded eSpeak NG engine is the default; an
 * external HTTP speech server can take its place (`OVATION_TTS_URL`), and an embedder may pass any
 * other implementation to `buildApp({ speech })`.
 */
export interface SpeechProvider {
  /** A short name, part of the cache key (`espeak-ng`, `http`). */
  readonly id: string;
  /** The voice used when none is asked for. */
  readonly defaultVoice: string;
  /** The voices this provider knows, by id. */
  voices(): Promise<string[]>;
  /**
   * Speaks `text` with `voice` (an id from {@link voices}).
   * @throws SpeechError when the voice is unknown or the engine fails.
   */
  synthesize(text: string, voice: string): Promise<SpeechAudio>;
}

/** A speech request that failed: `code` says why (`unknown_voice`, `engine_unavailable`, `engine_failed`). */
export class SpeechError extends Error {
  override readonly name = "SpeechError";
  readonly code: "unknown_voice" | "engine_unavailable" | "engine_failed";

  constructor(code: SpeechError["code"], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
