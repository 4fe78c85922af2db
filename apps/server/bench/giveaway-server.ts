// A server process for giveaway.bench.ts: Ovation on a fresh store (embedded files, or PostgreSQL
// when argument 2 is a URL) with a quiet user (who POSTs alerts) and a streamer whose giveaway is
// open. On request it feeds `!join` chat entries (as Kick webhooks or any chat plugin deliver them)
// at a steady rate, timing each entry until it is durable, or fills the giveaway fast to a count.
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { buildDefaultAlertSet } from "@ovation/core";
import type { ChatEvent } from "@ovation/core";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";

type Message = { type: "feed"; count: number; rate: number } | { type: "fill"; to: number } | { type: "stop" };

const dir = mkdtempSync(join(tmpdir(), "ovation-giveaway-bench-"));
const config = loadConfig({ OVATION_DATA_DIR: dir, OVATION_DATABASE_URL: process.argv[2], HOST: "127.0.0.1", PORT: "0", OVATION_RATE_LIMIT_PER_MINUTE: "100000000", OVATION_LOG_LEVEL: "silent" });
const app = await buildApp({ config, logger: pino({ level: "silent" }) });
const { repos, botModules } = app.ovation;

const quiet = repos.users.create({ name: "quiet" });
const { id: _i, user_id: _u, active: _a, ...set } = buildDefaultAlertSet({ id: 1, user_id: quiet.id });
repos.alertSets.create({ user_id: quiet.id, name: "bench", version: 4, config: set });
const token = repos.tokens.create({ user_id: quiet.id, name: "bench", scopes: ["alerts:manage"] }).token;
const streamer = repos.users.create({ name: "streamer" });
botModules.giveaways.open(String(streamer.id), { keyword: "!join", announce: false });

let viewers = 0;
function joinEvent(): ChatEvent {
  viewers++;
  return {
    id: `m-${viewers}`,
    type: "message",
    timestamp: Date.now(),
    platform: "kick",
    user: { platform_id: `viewer-${viewers}`, username: `viewer${viewers}`, avatar_url: "", color: null, badges: [] },
    channel: { id: String(streamer.id), platform_id: "1", username: "streamer", avatar_url: "" },
    message: "!join",
    fragments: [{ type: "text", text: "!join" }],
    parent: null,
    attributes: { edited: false, accent: null, action: false, highlight: false },
  };
}

async function enter(): Promise<void> {
  await botModules.handleChat(joinEvent(), "console");
}

async function feed(count: number, rate: number): Promise<number[]> {
  const times: number[] = [];
  const spacing = 1_000 / rate;
  for (let i = 0; i < count; i++) {
    const begin = performance.now();
    await enter();
    await repos.store.persisted();
    const took = performance.now() - begin;
    times.push(took);
    if (took < spacing) await sleep(spacing - took);
  }
  return times;
}

async function fill(to: number): Promise<void> {
  for (let count = repos.botState.giveawayEntryCount(streamer.id); count < to; count = repos.botState.giveawayEntryCount(streamer.id)) {
    for (let i = 0; i < Math.min(500, to - count); i++) await enter();
    await repos.store.persisted();
  }
}

await app.listen({ port: 0, host: "127.0.0.1" });
const { port } = app.server.address() as AddressInfo;
process.on("message", (m: Message) => {
  if (m.type === "feed") void feed(m.count, m.rate).then((times) => process.send?.({ type: "fed", times, entries: repos.botState.giveawayEntryCount(streamer.id) }));
  if (m.type === "fill") void fill(m.to).then(() => process.send?.({ type: "filled", entries: repos.botState.giveawayEntryCount(streamer.id) }));
  if (m.type === "stop") void app.close().then(() => (rmSync(dir, { recursive: true, force: true }), process.exit(0)));
});
process.send?.({ type: "ready", port, token, description: repos.store.description });
