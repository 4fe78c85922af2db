/** Read-aloud alerts (docs/tts.md): the provider interface, the embedded and HTTP providers, moderation, the cache. */
export { SpeechError } from "./speech-provider.js";
export type { SpeechAudio, SpeechProvider } from "./speech-provider.js";
export { EspeakSpeechProvider, ESPEAK_PACKAGE } from "./espeak-provider.js";
export { HttpSpeechProvider } from "./http-provider.js";
export { moderateSpeech } from "./speech-moderation.js";
export type { SpeechCandidate, SpeechDecision } from "./speech-moderation.js";
export { SpeechService } from "./speech-service.js";
export type { HeldSpeech } from "./speech-service.js";
export { encodeWav, wavDurationMs } from "./wav.js";
