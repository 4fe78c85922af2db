// Read-aloud speed of the embedded eSpeak NG (docs/tts.md): the engine's load time, then distinct messages
// of 200 characters (no cache hits; 100 by default, BENCH_TTS_MESSAGES) synthesised one after the other.
// Reports synthesis speed as a multiple of real time (audio length / synthesis time) and the p99 time to first audio. The
// engine answers a whole text at once, so the time to first audio is the time to the whole WAV.
import { EspeakSpeechProvider } from "@ovation/server";

const MESSAGES = Number(process.env["BENCH_TTS_MESSAGES"] ?? 100);
const WORDS = "thanks for the amazing stream today you always make my evening better keep up the great work and say hi to the cat for me please".split(" ");

function message(seed: number): string {
  let out = `Message ${seed}:`;
  for (let i = 0; out.length < 200; i++) out += ` ${WORDS[(seed * 7 + i * 3) % WORDS.length]}`;
  return out.slice(0, 200);
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] ?? 0;

const provider = new EspeakSpeechProvider();
const loadStart = performance.now();
await provider.voices();
const loadMs = performance.now() - loadStart;

const times: number[] = [];
let audioMs = 0;
let synthMs = 0;
for (let i = 0; i < MESSAGES; i++) {
  const start = performance.now();
  const audio = await provider.synthesize(message(i), provider.defaultVoice);
  const took = performance.now() - start;
  times.push(took);
  audioMs += audio.durationMs;
  synthMs += took;
}
console.log(`eSpeak NG (embedded, ${MESSAGES} messages of 200 characters; loaded machine unless stated)`);
console.log(`  engine load (first use): ${loadMs.toFixed(0)} ms`);
console.log(`  speed: ${(audioMs / synthMs).toFixed(2)}x real time (${(audioMs / 1000).toFixed(1)} s of audio in ${(synthMs / 1000).toFixed(1)} s)`);
// The first message after the engine loads pays the WebAssembly warm-up, once per server process; it is shown
// apart so the p99 is the one viewers meet after that.
const [first = 0, ...warm] = times;
console.log(`  first message after load: ${first.toFixed(0)} ms`);
console.log(`  time to first audio, the other ${warm.length}: p50 ${percentile(warm, 50).toFixed(0)} ms, p99 ${percentile(warm, 99).toFixed(0)} ms, max ${Math.max(...warm).toFixed(0)} ms`);
