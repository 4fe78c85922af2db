import { SpeechError } from "./speech-provider.js";
import type { SpeechAudio, SpeechProvider } from "./speech-provider.js";
import { encodeWav } from "./wav.js";

/** The package of the embedded engine: eSpeak NG compiled with Emscripten (GPL-3.0, an optional dependency). */
export const ESPEAK_PACKAGE = "@echogarden/espeak-ng-emscripten";

/** The parts of the engine's Emscripten module this provider uses. */
interface EspeakWorker {
  readonly samplerate: number;
  set_voice(name: string, language: string): number;
  set_rate(wordsPerMinute: number): void;
  list_voices(): Array<{ identifier: string; name: string; languages: Array<{ name: string }> }>;
  synthesize(text: string, onChunk: (samples: Int16Array, events: unknown[]) => boolean | undefined): void;
}
interface EspeakModule {
  eSpeakNGWorker: new () => EspeakWorker;
}

/**
 * eSpeak NG, embedded: the engine is loaded with `import()` the first time something is spoken, so a
 * server that never reads alerts aloud never loads it, and an installation that must not ship GPL code
 * can leave the optional dependency out (or use an HTTP speech server instead). Synthesis runs in the
 * server's process, without network. Calls are serialised (the engine keeps one voice at a time).
 */
export class EspeakSpeechProvider implements SpeechProvider {
  readonly id = "espeak-ng";
  readonly defaultVoice = "en-us";
  #worker: Promise<EspeakWorker> | null = null;
  #voices: string[] | null = null;
  #chain: Promise<unknown> = Promise.resolve();

  #load(): Promise<EspeakWorker> {
    this.#worker ??= (async () => {
      let factory: () => Promise<EspeakModule>;
      try {
        factory = ((await import(ESPEAK_PACKAGE)) as { default: () => Promise<EspeakModule> }).default;
      } catch (error) {
        throw new SpeechError("engine_unavailable", `the speech engine ${ESPEAK_PACKAGE} is not installed (npm install ${ESPEAK_PACKAGE}, or set OVATION_TTS_URL)`, { cause: error });
      }
      const module = await factory();
      return new module.eSpeakNGWorker();
    })();
    this.#worker.catch(() => {
      this.#worker = null;
    });
    return this.#worker;
  }

  async voices(): Promise<string[]> {
    if (this.#voices) return this.#voices;
    const worker = await this.#load();
    const ids = new Set<string>();
    for (const voice of worker.list_voices()) for (const language of voice.languages) ids.add(language.name);
    this.#voices = [...ids].sort();
    return this.#voices;
  }

  synthesize(text: string, voice: string): Promise<SpeechAudio> {
    const run = this.#chain.then(async () => {
      const worker = await this.#load();
      if (!(await this.voices()).includes(voice)) throw new SpeechError("unknown_voice", `no voice ${voice} (GET /v1/tts/voices lists them)`);
      if (worker.set_voice(voice, "") !== 0) throw new SpeechError("unknown_voice", `the engine refused the voice ${voice}`);
      const chunks: Int16Array[] = [];
      let total = 0;
      try {
        worker.synthesize(text, (samples) => {
          chunks.push(samples);
          total += samples.length;
          return false;
        });
      } catch (error) {
        throw new SpeechError("engine_failed", "the speech engine failed", { cause: error });
      }
      const samples = new Int16Array(total);
      let offset = 0;
      for (const chunk of chunks) {
        samples.set(chunk, offset);
        offset += chunk.length;
      }
      return { wav: encodeWav(samples, worker.samplerate), durationMs: Math.round((total / worker.samplerate) * 1000) };
    });
    this.#chain = run.catch(() => undefined);
    return run;
  }
}
