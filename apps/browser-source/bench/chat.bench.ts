// The `chat` source under load: the real server (built) on loopback, one chat source in Debian's
// Chromium, chat events of four platforms sent to the user's `.chat` rooms at 50 and then 200
// messages a second. Reports the page's frame time p99 (requestAnimationFrame deltas) and its JS heap
// and DOM size at the start, middle and end of each run. BENCH_CHAT_SECONDS sets the length of each
// run (default 60 s: the box keeps at most max_lines lines, so memory is steady after seconds; 10
// minutes per rate was left out on the shared 2-core machine).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp, loadConfig } from "@ovation/server";
import { chromium } from "playwright-core";

const SECONDS = Number(process.env["BENCH_CHAT_SECONDS"] ?? 60);
const RATES = (process.env["BENCH_CHAT_RATES"] ?? "50,200").split(",").map(Number);
const PLATFORMS = [
  { platform: "twitch", id: "12345678" },
  { platform: "youtube", id: "UCowner00000000000000000" },
  { platform: "kick", id: "123456789" },
  { platform: "ovation", id: "" },
];

const dataDir = mkdtempSync(path.join(tmpdir(), "ovation-chat-bench-"));
const config = loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: "0", OVATION_PUBLIC_URL: "http://127.0.0.1:1", OVATION_LOG_LEVEL: "silent" });
// The public URL must carry the real port: listen first on a free port, then build with it.
const probe = await buildApp({ config, platforms: false });
await probe.listen({ host: "127.0.0.1", port: 0 });
const port = (probe.server.address() as { port: number }).port;
await probe.close();
const base = `http://127.0.0.1:${port}`;
const app = await buildApp({ config: loadConfig({ OVATION_DATA_DIR: dataDir, HOST: "127.0.0.1", PORT: String(port), OVATION_PUBLIC_URL: base, OVATION_LOG_LEVEL: "silent" }), platforms: false });
const user = app.ovation.repos.users.create({ name: "bench", email: "bench@example.test" });
for (const p of PLATFORMS) if (p.platform !== "ovation") app.ovation.repos.connections.upsert({ user_id: user.id, platform: p.platform, platform_user_id: p.id, username: p.platform });
const source = app.ovation.repos.browserSources.findOrCreate(user.id, "chat", null).record;
await app.listen({ host: "127.0.0.1", port });

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", headless: true, args: ["--no-sandbox", "--disable-gpu", "--enable-precise-memory-info"] });
const page = await browser.newPage({ viewport: { width: 640, height: 1080 } });
await page.goto(`${base}/browser-source/chat/${source.access_token}`);
await page.waitForSelector('#ovation-root[data-state="connected"]', { timeout: 30_000 });

const room = (p: (typeof PLATFORMS)[number]) => `${user.uuid}.${p.platform}.${p.platform === "ovation" ? user.id : p.id}.chat`;
let seq = 0;
function event(p: (typeof PLATFORMS)[number]) {
  seq += 1;
  const emote = p.platform === "twitch" ? [{ type: "emote", text: "Kappa", data: { platform: "twitch", platform_id: "25" } }] : [];
  const text = `message ${seq} from ${p.platform} with a few words to wrap the line`;
  return {
    id: `bench-${seq}`,
    type: "message",
    timestamp: Date.now(),
    platform: p.platform,
    user: { platform_id: String(seq % 500), username: `viewer${seq % 500}`, avatar_url: "", color: "#1E90FF", badges: [{ type: "subscriber", text: "Subscriber", id: "subscriber/3", count: 3 }] },
    channel: { id: String(user.id), platform_id: p.id, username: "bench", avatar_url: "" },
    message: emote.length > 0 ? `${text} Kappa` : text,
    fragments: [{ type: "text", text: emote.length > 0 ? `${text} ` : text }, ...emote],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: seq % 50 === 0 },
  };
}

const percentile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((q / 100) * values.length) - 1)] ?? 0;

// Scripts for the page are strings: tsx would wrap functions with helpers the page does not have.
const SAMPLE = `(() => {
  const memory = performance.memory;
  return { heapMb: (memory ? memory.usedJSHeapSize : 0) / 1048576, nodes: document.getElementsByTagName("*").length, lines: document.querySelectorAll(".ovation-chat-line").length };
})()`;
const START_FRAMES = `(() => {
  window.__frames = [];
  window.__stop = false;
  let last = performance.now();
  const tick = (now) => {
    window.__frames.push(now - last);
    last = now;
    if (!window.__stop) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;
const STOP_FRAMES = `(() => { window.__stop = true; return window.__frames.slice(1); })()`;

const sample = () => page.evaluate(SAMPLE) as Promise<{ heapMb: number; nodes: number; lines: number }>;

console.log(`chat source, ${SECONDS} s per rate, loaded shared machine (2 cores)`);
for (const rate of RATES) {
  await page.evaluate(START_FRAMES);
  const samples = [await sample()];
  const end = Date.now() + SECONDS * 1000;
  const interval = 1000 / rate;
  let next = Date.now();
  let i = 0;
  let half = false;
  while (Date.now() < end) {
    const p = PLATFORMS[i % PLATFORMS.length] ?? PLATFORMS[0];
    if (p) app.ovation.io.to(room(p)).emit("message", event(p) as never);
    i += 1;
    next += interval;
    const wait = next - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (!half && Date.now() > end - (SECONDS * 1000) / 2) {
      half = true;
      samples.push(await sample());
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  samples.push(await sample());
  const frames = (await page.evaluate(STOP_FRAMES)) as number[];
  console.log(
    `  ${rate} msg/s: ${i} messages, frames ${frames.length}, frame time p50 ${percentile(frames, 50).toFixed(1)} ms, p99 ${percentile(frames, 99).toFixed(1)} ms; ` +
      `heap MB start/middle/end ${samples.map((s) => s.heapMb.toFixed(1)).join(" / ")}, DOM nodes end ${samples.at(-1)?.nodes}, lines ${samples.at(-1)?.lines}`,
  );
}

await browser.close();
await app.close();
rmSync(dataDir, { recursive: true, force: true });
