import { SpeechError } from "./speech-provider.js";
import type { SpeechAudio, SpeechProvider } from "./speech-provider.js";
import { wavDurationMs } from "./wav.js";

/** Longest an external speech server may take for one text. */
const HTTP_TIMEOUT_MS = 20_000;
/** Largest answer accepted (about 10 minutes of 16-bit mono audio at 16 kHz). */
const MAX_AUDIO_BYTES = 20 * 1024 * 1024;

/**
 * An external speech server (`OVATION_TTS_URL`): `POST <url>` with `{"text", "voice"}` answers
 * `audio/wav`; `GET <url>/voices` answers a JSON array of voice ids. The address is the operator's
 * (configuration, never user input), so it may be on the local network.
 */
export class HttpSpeechProvider implements SpeechProvider {
  readonly id = "http";

  constructor(
    private readonly url: string,
    readonly defaultVoice = "default",
  ) {}

  async voices(): Promise<string[]> {
    const response = await fetch(`${this.url.replace(/\/+$/, "")}/voices`, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) }).catch(() => null);
    if (!response?.ok) return [this.defaultVoice];
    const body: unknown = await response.json().catch(() => null);
    return Array.isArray(body) ? body.filter((v): v is string => typeof v === "string") : [this.defaultVoice];
  }

  async synthesize(text: string, voice: string): Promise<SpeechAudio> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "audio/wav" },
        body: JSON.stringify({ text, voice }),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
    } catch (error) {
      throw new SpeechError("engine_unavailable", "the speech server cannot be reached", { cause: error });
    }
    if (response.status === 404 || response.status === 422) throw new SpeechError("unknown_voice", `the speech server refused the voice ${voice}`);
    if (!response.ok) throw new SpeechError("engine_failed", `the speech server answered ${response.status}`);
    const wav = Buffer.from(await response.arrayBuffer());
    if (wav.length > MAX_AUDIO_BYTES) throw new SpeechError("engine_failed", "the speech server answered more audio than allowed");
    const durationMs = wavDurationMs(wav);
    if (durationMs === null) throw new SpeechError("engine_failed", "the speech server did not answer a PCM WAV file");
    return { wav, durationMs };
  }
}
